import { snippet } from './snippet';

export default snippet(async (sesame) => {
  // Every organization, 2 per request: the iterator follows pagination.next_page
  const organizations = await sesame.organizations.list({ per_page: 2 }).toArray();
  return organizations;
});
