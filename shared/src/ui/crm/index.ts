export * from './state';
export * from './CrmCardFrame';
export * from './SalesforceCard';
export * from './AffinityCard';
export * from './CrmUsernameSection';
