// Types of eslint.config.js for the test that checks the tenancy rule (server/test/tenancy-lint.test.ts).
export declare const tenancySyntax: { selector: string; message: string }[];
declare const config: unknown[];
export default config;
