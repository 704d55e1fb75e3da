import { snippet } from './snippet';

export default snippet<'partner_domain' | 'source_domain'>(async (sesame, v) => {
  const relay = await sesame.relays.create({
    partner_domain: v.partner_domain,
    source_organizations: [v.source_domain],
    partner_redirect_uri: 'https://partner.example.net/sesame/callback',
    jit: true,
  });
  return relay;
});
