import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

/** Examples of the admins operations (API reference), checked against their schemas. */
export const adminsExamples = {
  inviteAdmin: {
    request: {
      email: 'lucius.fox@wayne.com',
    },
    response: {
      __type__: 'Admin',
      __domain__: 'wayne-enterprises',
      __environment__: 'sandbox',
      id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
      email: 'lucius.fox@wayne.com',
      organization: 'wayne-enterprises',
      color: '#7c3aed',
      invited_at: '2025-03-04T09:12:45.118Z',
      accepted_invitation_at: null,
      declined_to_be_in_charge_at: null,
      last_login_at: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  listAdmins: {
    response: {
      data: [
        {
          __type__: 'Admin',
          __domain__: 'wayne-enterprises',
          __environment__: 'sandbox',
          id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
          email: 'lucius.fox@wayne.com',
          organization: 'wayne-enterprises',
          color: '#7c3aed',
          invited_at: '2025-03-04T09:12:45.118Z',
          accepted_invitation_at: null,
          declined_to_be_in_charge_at: null,
          last_login_at: null,
        },
      ],
      pagination: {
        current_page: 1,
        current_pages: 1,
        next_page: null,
        prev_page: null,
        per_page: 10,
        total_pages: 1,
      },
      total: 1,
    },
    error: apiErrorExample('resource_not_found'),
  },
  getAdmin: {
    response: {
      __type__: 'Admin',
      __domain__: 'wayne-enterprises',
      __environment__: 'sandbox',
      id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
      email: 'lucius.fox@wayne.com',
      organization: 'wayne-enterprises',
      color: '#7c3aed',
      invited_at: '2025-03-04T09:12:45.118Z',
      accepted_invitation_at: null,
      declined_to_be_in_charge_at: null,
      last_login_at: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  deleteAdmin: {
    response: {
      deleted: true,
      resource: {
        __type__: 'Admin',
        __domain__: 'wayne-enterprises',
        __environment__: 'sandbox',
        id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
        email: 'lucius.fox@wayne.com',
        organization: 'wayne-enterprises',
        color: '#7c3aed',
        invited_at: '2025-03-04T09:12:45.118Z',
        accepted_invitation_at: null,
        declined_to_be_in_charge_at: null,
        last_login_at: null,
      },
    },
    error: apiErrorExample('resource_not_found'),
  },
  revokeAdminOnboarding: {
    response: {
      __type__: 'Admin',
      __domain__: 'wayne-enterprises',
      __environment__: 'sandbox',
      id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
      email: 'lucius.fox@wayne.com',
      organization: 'wayne-enterprises',
      color: '#7c3aed',
      invited_at: '2025-03-04T09:12:45.118Z',
      accepted_invitation_at: null,
      declined_to_be_in_charge_at: null,
      last_login_at: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
} satisfies Record<string, OperationExamples>;
