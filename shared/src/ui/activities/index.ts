export * from './MiniDrawerContext';
export * from './MiniDrawer';
export * from './ActivitiesTab';
export * from './ParticipantPicker';
export * from './activity-view';
