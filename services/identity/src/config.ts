import { baseConfigSchema, requireStoreUrls } from '@sesame/platform';

export const identityConfigSchema = baseConfigSchema.superRefine(requireStoreUrls);
