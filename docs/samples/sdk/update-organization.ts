import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const organization = await sesame.organizations.update(v.org_domain, {
    color: '#0f766e',
    locale: 'fr-FR',
    timezone: 'Europe/Paris',
  });
  return organization;
});
