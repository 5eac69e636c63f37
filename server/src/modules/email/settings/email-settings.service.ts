// The caller's email signature (Profile → Email settings), written under the body of their drafts.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthContext } from '../../../plugins/types';
import { emailSettingsOf } from '../../organization/ai-summary';
import { forgetUser } from '../../../lib/session-cache';

export async function saveSignature(em: EntityManager, auth: AuthContext, signature: string) {
  auth.user.emailSignature = signature.replace(/\r\n/g, '\n').trim() || null;
  await em.flush();
  forgetUser(auth.user.id);
  return emailSettingsOf(em, auth);
}
