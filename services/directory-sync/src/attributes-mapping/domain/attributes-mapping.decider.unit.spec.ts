import { deciderSpecification } from '@sesame/platform/testing';
import type { AttributeMapping, AttributesMappingEvent } from '@sesame/contracts';
import { attributesMappingDecider } from './attributes-mapping.decider';
import { defaultAttributesMapping } from './default-mapping';

const spec = deciderSpecification(attributesMappingDecider);
const at = '2026-01-01T00:00:00.000Z';
const custom: AttributeMapping[] = [{ name: 'emails.value', mapped_name: 'email', required: true }];
const set = (attributes: AttributeMapping[]) => ({
  type: 'SetAttributesMapping' as const,
  data: { environment: 'sandbox' as const, attributes, at },
});
const changed = (attributes: AttributeMapping[], previous_attributes: AttributeMapping[]): AttributesMappingEvent => ({
  type: 'AttributesMappingChanged',
  data: { environment: 'sandbox', attributes, previous_attributes, at },
});

describe('attributes mapping decider', () => {
  it('replaces the default mapping, keeping it as the previous one', () => {
    spec
      .given([])
      .when(set(custom))
      .then([changed(custom, defaultAttributesMapping)]);
  });

  it('records setting the default mapping explicitly, but not setting the same mapping twice', () => {
    spec
      .given([])
      .when(set(defaultAttributesMapping))
      .then([changed(defaultAttributesMapping, defaultAttributesMapping)]);
    spec
      .given([changed(custom, defaultAttributesMapping)])
      .when(set(custom))
      .thenNothingHappens();
  });
});
