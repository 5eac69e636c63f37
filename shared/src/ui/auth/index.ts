export * from './ResetRequestForm';
