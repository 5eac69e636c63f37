// Enrichments in the clients: editors (prompt, schema, colour), the type selector and editor modals,
// the Enrich popover of the tables, live result statuses and the drawer's enrichment rows.
export * from './SchemaEditor';
export * from './PromptEditor';
export * from './ColorPalette';
export * from './ResultValue';
export * from './keys';
export * from './useLlmModels';
export * from './useEnrichmentLlm';
export * from './EnrichmentEditor';
export * from './NewEnrichment';
export * from './DateRangePicker';
export * from './liveResults';
export * from './EnrichPopover';
export * from './FieldResultCell';
export * from './DrawerEnrichments';
