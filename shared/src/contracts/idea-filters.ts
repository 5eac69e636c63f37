// The filters of a list's ideas table (spec 002 §7 'Ideas'), in their own module: the lists' routes
// and the enrichment runs (POST /enrichment/execute with entityType 'idea', all selected) read them.
import { z } from 'zod';
import { IDEA_STATUSES } from '../domain/lists';

export const IdeaStatusSchema = z.enum(IDEA_STATUSES);

/** The filters of the ideas table; also what 'all selected across pages' sends (ideaFilters). */
export const IdeaFilters = z.object({
  text: z.string().max(200).default(''),
  /** true: shortlisted only; false: not shortlisted; null/absent: both. */
  inShortlist: z.boolean().nullable().optional(),
  /** Idea statuses to show (empty: all). A single status is accepted too. */
  recordStatus: z
    .union([IdeaStatusSchema, z.array(IdeaStatusSchema).max(3)])
    .nullable()
    .optional(),
  listSourceIds: z.array(z.uuid()).max(200).default([]),
  /** Rows deselected after 'select all' (all-selected bulk calls only). */
  excludeIds: z.array(z.uuid()).max(10_000).default([]),
});
export type IdeaFilters = z.input<typeof IdeaFilters>;
