export * from './RunPlayPopover';
export * from './SkippedTargets';
