import { z } from 'zod';

/** Every error answer: `{ success: false, message }` (plus field issues for validation errors). */
export const ErrorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const SuccessResponse = z.object({ success: z.literal(true), message: z.string() });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

export const IdParams = z.object({ id: z.uuid({ message: 'Invalid id' }) });
export type IdParams = z.infer<typeof IdParams>;
