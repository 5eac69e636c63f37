import * as C from '../contracts';
import { Http, type HttpOptions } from './http';

const Success = C.SuccessResponse;

/** The Dealscout API, one method per route, typed by the shared contracts. */
export function createApi(opts: HttpOptions = {}) {
  const http = new Http(opts);
  return {
    http,
    setup: {
      status: () => http.request('GET', '/api/v1/setup', C.SetupStatusResponse),
      run: (body: C.SetupBody) => http.request('POST', '/api/v1/setup', C.LoginResponse, body),
    },
    auth: {
      login: (body: C.LoginBody) => http.request('POST', '/api/v1/auth/login', C.LoginResponse, body),
      token: (body: C.TokenBody) => http.request('POST', '/api/v1/auth/token', C.TokenResponse, body),
      revokeToken: () => http.request('DELETE', '/api/v1/auth/token', Success),
      logout: () => http.request('POST', '/api/account/logout', Success),
      forgotPassword: (body: C.ForgotPasswordBody) => http.request('POST', '/api/v1/auth/forgotpassword', Success, body),
      resetPassword: (body: C.ResetPasswordBody) => http.request('POST', '/api/v1/auth/resetpassword', Success, body),
    },
    user: {
      get: () => http.request('GET', '/api/v1/user', C.GetUserResponse),
      saveSettings: (settings: C.UserSettingsBody) => http.request('PUT', '/api/v1/user/settings', C.UserSettingsResponse, settings),
      updateProfile: (body: C.UpdateProfileBody) => http.request('PUT', '/api/v1/user/profile', C.GetUserResponse, body),
    },
    organization: {
      get: () => http.request('GET', '/api/v1/organization', C.GetOrganizationResponse),
      systemRoles: () => http.request('GET', '/api/v1/organization/system-roles', C.SystemRolesResponse),
      users: () => http.request('GET', '/api/v1/organization/users', C.UsersResponse),
      invite: (body: C.InviteBody) => http.request('POST', '/api/v1/organization/invite', C.InviteResponse, body),
      revokeInvite: (id: string) => http.request('DELETE', `/api/v1/organization/invites/${encodeURIComponent(id)}`, Success),
      setRole: (id: string, role: C.SetRoleBodyT['role']) => http.request('PUT', `/api/v1/organization/users/${encodeURIComponent(id)}/role`, C.MemberResponse, { role }),
      setStatus: (id: string, status: C.SetStatusBodyT['status']) => http.request('PUT', `/api/v1/organization/users/${encodeURIComponent(id)}/status`, C.MemberResponse, { status }),
      deleteUser: (id: string) => http.request('DELETE', `/api/v1/organization/users/${encodeURIComponent(id)}`, Success),
    },
    invite: {
      info: (token: string) => http.request('GET', `/api/v1/invite/${encodeURIComponent(token)}`, C.InviteInfoResponse),
      accept: (body: C.AcceptInviteBody) => http.request('POST', '/api/v1/invite/accept', C.LoginResponse, body),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
