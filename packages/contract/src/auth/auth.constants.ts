/**
 * Sign-in's constants, without zod: the web's entry (the session's level) and its login page (the
 * e-mail check) import them, and importing a file that builds schemas would bring zod into both.
 */

/** Spec section 5: non-space text, @, text, dot, text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

export const ADMIN_LEVEL = 0;
export const DEFAULT_USER_LEVEL = 1;
