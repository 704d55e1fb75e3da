import { fieldErrorsFromZod } from '../common/errors';
import { listQueryOfSearch, scimSearchRequestSchema, scimSearchRequestUrn } from './scim.operations';

const errorsOf = (body: unknown) => {
  const parsed = scimSearchRequestSchema.safeParse(body);
  return parsed.success ? {} : fieldErrorsFromZod(parsed.error);
};

describe('SCIM search request (RFC 7644 section 3.4.3)', () => {
  it('becomes the listing query: attribute arrays as comma-separated lists, the rest as sent, schemas dropped', () => {
    const request = scimSearchRequestSchema.parse({
      schemas: [scimSearchRequestUrn],
      filter: 'userName sw "a"',
      startIndex: 2,
      count: 5,
      attributes: ['userName', 'emails.value'],
      excludedAttributes: ['groups'],
      sortBy: 'userName',
      sortOrder: 'descending',
    });
    expect(listQueryOfSearch(request)).toEqual({
      filter: 'userName sw "a"',
      startIndex: 2,
      count: 5,
      attributes: 'userName,emails.value',
      excludedAttributes: 'groups',
      sortBy: 'userName',
      sortOrder: 'descending',
    });
    expect(listQueryOfSearch(scimSearchRequestSchema.parse({ schemas: [scimSearchRequestUrn] }))).toEqual({});
  });

  it.each([
    [{}, { schemas: ["can't be blank"] }],
    [{ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] }, { schemas: [`must include ${scimSearchRequestUrn}`] }],
    [
      { schemas: [scimSearchRequestUrn], count: '5', startIndex: 1.5 },
      { count: ['must be an integer'], startIndex: ['must be an integer'] },
    ],
    [
      { schemas: [scimSearchRequestUrn], attributes: 'userName', excludedAttributes: [''] },
      { attributes: ['must be an array'], 'excludedAttributes.0': ["can't be blank"] },
    ],
    [{ schemas: [scimSearchRequestUrn], sortOrder: 'up' }, { sortOrder: ['must be ascending or descending'] }],
  ])('refuses %j with %j', (body, errors) => {
    expect(errorsOf(body)).toEqual(errors);
  });
});
