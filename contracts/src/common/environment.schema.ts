import { z } from '../zod';

export const environments = ['sandbox', 'production'] as const;
export const environmentSchema = z.enum(environments).meta({ id: 'Environment' });
export type Environment = z.infer<typeof environmentSchema>;
