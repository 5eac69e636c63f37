// The detail drawer of a company or a contact, shared by the web app, the add-in and the extension.
export * from './RecordDrawer';
export * from './drawer-rules';
export * from './DrawerSection';
export * from './LinkSections';
export * from './FieldsSection';
