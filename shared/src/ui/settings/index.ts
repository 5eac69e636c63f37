export * from './CurrencySettingsCard';
