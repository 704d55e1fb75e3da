import { withoutTypeMarkers } from './type-markers';

describe('withoutTypeMarkers (the SDKs mark the objects they send with __type__)', () => {
  it('drops __type__ at every depth, in objects and in arrays of objects', () => {
    expect(
      withoutTypeMarkers({
        __type__: 'User',
        email: 'ada@acme.com',
        profile: { __type__: 'Profile', given_name: 'Ada', address: { __type__: 'Address', locality: 'Paris' } },
        phone_numbers: [{ __type__: 'PhoneNumber', value: '+33612345678' }, '+33700000000'],
      }),
    ).toEqual({
      email: 'ada@acme.com',
      profile: { given_name: 'Ada', address: { locality: 'Paris' } },
      phone_numbers: [{ value: '+33612345678' }, '+33700000000'],
    });
  });

  it('keeps every other value as it is', () => {
    for (const value of [null, 'text', 3, true, [], {}]) expect(withoutTypeMarkers(value)).toEqual(value);
    expect(withoutTypeMarkers({ type: 'x', _type_: 'y' })).toEqual({ type: 'x', _type_: 'y' });
  });
});
