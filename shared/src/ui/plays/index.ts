export * from './RunPlayPopover';
