// Query keys of enrichments (all under ['enrichments'] or ['enrichment-result'] so one
// invalidation refreshes every view).
export const enrichmentKeys = {
  all: ['enrichments'] as const,
  list: (body: unknown) => ['enrichments', 'list', body] as const,
  forEntity: (entityType: string) => ['enrichments', 'entity', entityType] as const,
  creators: ['enrichments', 'creators'] as const,
  configs: ['enrichment-configs'] as const,
  /** One record's result of one enrichment (cells and drawer rows read it; events write it). */
  result: (enrichmentId: string, entityId: string) => ['enrichment-result', enrichmentId, entityId] as const,
  /** The fetch that seeds the per-cell results of a page or a drawer. */
  results: (entityType: string, entityIds: readonly string[], enrichmentIds: readonly string[]) =>
    ['enrichment-results', entityType, [...entityIds], [...enrichmentIds]] as const,
};
