// The email a play would write for one contact (POST /play/preview): the real model for Ai plays,
// the rendered template for non-Ai ones, signed with the caller's signature; nothing is stored.
import type { z } from 'zod';
import type { PlayPreviewBody, PlayPreviewResponse } from '@dealscout/shared/contracts';
import { PLAY_MESSAGES, EMAIL_MESSAGES, RenderError, textToHtml, withSignature, type RichPromptNode } from '@dealscout/shared/domain';
import { badRequest, notFound } from '../../lib/errors';
import { Play } from './play.entity';
import { loadTarget, renderForTarget, targetContext, emailMessages, EMAIL_SCHEMA, TargetProblem } from './render';
import type { PlayContext } from './plays.service';

type PreviewPlay = {
  instructions: RichPromptNode[];
  playType: z.output<typeof PlayPreviewBody>['llmProvider'];
  subject: string;
  subjectPrompt: string;
  llmModelId: string;
};

/** The play to preview: the stored one (playId, 404 when not the organization's) or the editor's unsaved form. */
async function playToPreview(c: PlayContext, body: z.output<typeof PlayPreviewBody>): Promise<PreviewPlay> {
  if (!body.playId)
    return {
      instructions: body.instructions as RichPromptNode[],
      playType: body.llmProvider,
      subject: body.title,
      subjectPrompt: body.subjectPrompt,
      llmModelId: body.llmModelId,
    };
  const p = await c.em.findOne(Play, { id: body.playId, organization: c.organizationId });
  if (!p) throw notFound(PLAY_MESSAGES.invalid);
  return {
    instructions: p.instructions,
    playType: p.playType as PreviewPlay['playType'],
    subject: p.subject,
    subjectPrompt: p.subjectPrompt,
    llmModelId: p.llmModelId,
  };
}

/** The preview; a model failure is thrown as the LlmError (the route answers 422). */
export async function previewPlay(c: PlayContext, body: z.output<typeof PlayPreviewBody>): Promise<PlayPreviewResponse> {
  if (!body.name.trim() && !body.playId) throw badRequest(PLAY_MESSAGES.enterName);
  if (!body.contactId) throw badRequest(PLAY_MESSAGES.selectContact);
  const play = await playToPreview(c, body);
  try {
    const target = await loadTarget(c.em, c.organizationId, 'contact', body.contactId);
    if (!target) throw notFound(EMAIL_MESSAGES.entityNotFound);
    const rendered = await renderForTarget(c.em, c.organizationId, play.instructions, target);
    // The caller's signature (their email settings) under the body, as their run would write it.
    const me = c.user;
    const signature = me.emailSignature?.trim() || null;
    if (play.playType === 'non_ai')
      return {
        success: true as const,
        subject: play.subject,
        body: textToHtml(withSignature(rendered.text, signature)),
        model: null,
        renderedPrompt: rendered.text,
        values: rendered.values,
      };
    const res = await c.llm.complete({
      organizationId: c.organizationId,
      model: play.llmModelId || 'default',
      messages: emailMessages({
        instructions: rendered.text,
        subject: play.subject,
        subjectPrompt: play.subjectPrompt,
        context: targetContext(target),
        sender: `${me.firstName} ${me.lastName}`,
        signature,
      }),
      responseSchema: { name: 'email', schema: EMAIL_SCHEMA },
    });
    const parsed = JSON.parse(res.content ?? '{}') as { subject?: string; body?: string };
    return {
      success: true as const,
      subject: play.subject.trim() || parsed.subject || '',
      body: textToHtml(withSignature(parsed.body ?? '', signature)),
      model: res.model,
      renderedPrompt: rendered.text,
      values: rendered.values,
    };
  } catch (err) {
    if (err instanceof TargetProblem || err instanceof RenderError) throw badRequest(err.message);
    throw err;
  }
}
