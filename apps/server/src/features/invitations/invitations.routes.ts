import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { ReceivedInvitationSchema } from '@sunward/contracts/invitations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { InvitationsService } from './invitations.service.js';

const TAGS = ['Invitations'];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
const OWN = 'the invited account answers an invitation addressed to itself; any other id answers 211, the same as an unknown one';

/**
 * The invitee's side of invitations (issue 15.4): what is addressed to the caller, accept, decline. The
 * inviter's side lives with what is offered: company/ (agents) and customers/.
 */
export const invitationsRoutes: FastifyPluginAsyncZod<{ service: InvitationsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/invitations',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'Open invitations addressed to the caller that the caller may answer (to become an agent or a customer)',
        response: { 200: envelopeSchema(z.array(ReceivedInvitationSchema)) },
      },
    },
    async (request) => ok(request, await service.received(request.requireAuth())),
  );

  app.post(
    '/api/v1/invitations/:id/accept',
    {
      config: { access: { kind: 'own-account', reason: OWN } },
      schema: {
        tags: TAGS,
        summary:
          'Accepts an invitation: the agent appointment or the customer link is made (211 not open; 902, 903, 106, 204 by the rules)',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.accept(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/invitations/:id/decline',
    {
      config: { access: { kind: 'own-account', reason: OWN } },
      schema: {
        tags: TAGS,
        summary: 'Declines an invitation: nothing is linked (211 not open)',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.decline(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );
};
