// A PKCE pair for the contract tests that drive a provider's fake through its authorization step by
// hand, made the way the product makes its own (integrations/oauth.ts, on oauth4webapi).
import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from 'oauth4webapi';

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = generateRandomCodeVerifier();
  return { verifier, challenge: await calculatePKCECodeChallenge(verifier) };
}
