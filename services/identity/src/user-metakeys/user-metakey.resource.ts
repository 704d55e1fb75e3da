import type { UserMetakey } from '@sesame/contracts';
import type { StoredUserMetakey } from './user-metakeys.deps';

/** The API representation of a user metakey. */
export const toUserMetakey = (state: StoredUserMetakey): UserMetakey => ({
  name: state.name,
  required: state.required,
  type: state.type,
});
