import { deciderSpecification } from '@sesame/platform/testing';
import type { RedirectUriEvent } from '@sesame/contracts';
import { redirectUrisDecider } from './redirect-uris.decider';
import type { RedirectUrisCommand } from './redirect-uris.decider';
import { redirectUrlProblem } from './redirect-url';

const spec = deciderSpecification(redirectUrisDecider);
const at = '2026-01-01T00:00:00.000Z';
const deps = 'sandbox' as const;
const add = (id: string, url: string, production = false): RedirectUrisCommand => ({
  type: 'AddRedirectUri',
  data: { environment: deps, id, url, production, at },
});
const added = (id: string, url: string, isDefault: boolean): RedirectUriEvent => ({
  type: 'RedirectUriAdded',
  data: { environment: deps, redirect_uri: { id, url, inserted_at: at }, default: isDefault },
});
const first = added('a', 'https://a.example.com/cb', true);
const second = added('b', 'https://b.example.com/cb', false);

describe('redirect URIs decider', () => {
  it('makes the first redirect URI of an environment its default, not the next ones', () => {
    spec.given([]).when(add('a', 'https://a.example.com/cb')).then([first]);
    spec.given([first]).when(add('b', 'https://b.example.com/cb')).then([second]);
  });

  it('refuses a URL already registered and a bad URL', () => {
    spec
      .given([first])
      .when(add('c', 'https://a.example.com/cb'))
      .thenFails({ kind: 'fields', fields: { url: ['has already been taken'] }, reason: 'taken' });
    spec
      .given([])
      .when(add('c', 'not a url'))
      .thenFails({ kind: 'fields', fields: { url: ['is not a valid absolute URL'] } });
  });

  it('moves the default: exactly one at a time', () => {
    spec
      .given([first, second])
      .when({ type: 'SetDefaultRedirectUri', data: { environment: deps, id: 'b', at } })
      .then([{ type: 'DefaultRedirectUriChanged', data: { environment: deps, id: 'b', previous_id: 'a', at } }]);
    spec
      .given([first, second])
      .when({ type: 'SetDefaultRedirectUri', data: { environment: deps, id: 'a', at } })
      .thenNothingHappens();
    spec
      .given([first])
      .when({ type: 'SetDefaultRedirectUri', data: { environment: deps, id: 'zz', at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });

  it("refuses to remove the default: 'Can not remove a default Redirection'", () => {
    spec
      .given([first, second])
      .when({ type: 'RemoveRedirectUri', data: { environment: deps, id: 'a', at } })
      .thenFails({
        kind: 'fields',
        fields: { default: ['Can not remove a default Redirection'] },
      });
  });

  it('removes another one, and answers not found for an unknown one', () => {
    spec
      .given([first, second])
      .when({ type: 'RemoveRedirectUri', data: { environment: deps, id: 'b', at } })
      .then([{ type: 'RedirectUriRemoved', data: { environment: deps, id: 'b', url: 'https://b.example.com/cb', at } }]);
    spec
      .given([first])
      .when({ type: 'RemoveRedirectUri', data: { environment: deps, id: 'b', at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });
});

describe('redirect URL rules', () => {
  it.each([
    ['https://app.example.com/cb?x=1', false, null],
    ['http://app.example.com/cb', false, null],
    ['http://app.example.com/cb', true, 'must use https: http is allowed only for localhost in production'],
    ['http://localhost:3000/cb', true, null],
    ['http://127.0.0.1/cb', true, null],
    ['http://[::1]/cb', true, null],
    ['https://app.example.com/cb', true, null],
    ['/relative', false, 'is not a valid absolute URL'],
    ['myapp://callback', false, 'must be an http or https URL'],
    ['https://app.example.com/cb#frag', false, 'must not contain a fragment (#...)'],
    ['https://app.example.com/cb#', false, 'must not contain a fragment (#...)'],
    ['https://u:p@app.example.com/cb', false, 'must not contain credentials'],
  ])('%s (production %s): %s', (url, production, problem) => {
    expect(redirectUrlProblem(url, production)).toBe(problem);
  });
});
