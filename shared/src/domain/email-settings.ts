// The profile's email settings (spec 001 §2 /account/profile 'Engage email settings': the email signature and
// the organization's AI summary used in generated emails): their messages (contracts/user.ts re-exports them).
export const EMAIL_SETTINGS_MESSAGES = {
  signatureSaved: 'Email signature saved',
  summarySaved: 'Organization summary saved',
  signatureTooLong: 'The signature is too long (at most 5,000 characters)',
  summaryTooLong: 'The summary is too long (at most 5,000 characters)',
  noWebsite: "Add the organization's website first: the summary is generated from it.",
  websiteUnreadable: (reason: string) => `Could not read the organization's website: ${reason}`,
} as const;
