// Record tables shared by the web app, the Outlook add-in and the Chrome extension.
export * from './tableState';
export * from './layout';
export * from './format';
export * from './filterLabel';
export * from './PaginationBar';
export * from './FilterEditor';
export * from './FilterBar';
export * from './ColumnsMenu';
export * from './RecordTable';
export * from './useTableLayout';
export * from './EntityTable';
export * from './firstPage';
