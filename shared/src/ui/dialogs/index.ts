// Create and edit dialogs shared by the web app, the Outlook add-in and the Chrome extension.
export * from './AccountOwnerSelect';
export * from './CompanyDialog';
export * from './ContactDialog';
export * from './RecordDialog';
export * from './NewFieldDialog';
export * from './RecordPicker';
export * from './RecordFormFields';
export * from './save-errors';
export * from './invalidate';
export * from './useDebouncedValue';
