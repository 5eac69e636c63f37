export * from './AiProviderCard';
export * from './LlmSettingsCard';
