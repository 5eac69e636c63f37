export * from './state';
export * from './CrmCardFrame';
export * from './SalesforceCard';
export * from './AffinityCard';
export * from './CrmUsernameSection';
export * from './CrmSyncSettings';
export * from './CrmSyncButton';
export * from './SyncHistorySection';
