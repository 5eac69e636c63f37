export * from './NotificationBell';
