import { snippet } from './snippet';

export default snippet(async (sesame) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { name: ["can't be blank"] }
  await sesame.organizations.create({ name: '' });
});
