export * from './RunProgress';
