export * from './EmailServiceCard';
export * from './ScheduledEmailActions';
export * from './DraftSendControls';
