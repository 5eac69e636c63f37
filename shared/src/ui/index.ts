// React + Fluent UI pieces shared by the web app, the Outlook add-in and the Chrome extension.
// No router imports here: navigation is passed in by each client.
export * from './PluginMode';
export * from './toast';
export * from './ConfirmDialog';
export * from './FailureNotice';
export * from './TagsInput';
export * from './InviteUsersModal';
export * from './ApiContext';
export * from './DrawerContext';
export * from './dialogs';
export * from './table';
export * from './drawer';
export * from './realtime';
export * from './activities';
export * from './notifications';
export * from './enrichments';
export * from './plays';
export * from './llm';
export * from './auth';
export * from './scoring';
export * from './lists';
export * from './email';
export * from './drafts';
export * from './crm';
export * from './settings';
export * from './values';
export * from './progress';
