import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '@guardian/contract';
import { api } from '../../lib/api';

export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/login', credentials);
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}
