export * from './ListsTable';
export * from './ListIdeas';
export * from './IdeaDrawer';
export * from './NameDialog';
export * from './labels';
export * from './UploadCsvDialog';
export * from './csvHeader';
export * from './AddSourceDialog';
