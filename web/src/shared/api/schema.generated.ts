/**
 * Types of the Nuage API, generated from api/openapi.json by openapi-typescript.
 * Do not edit: run `npm run generate` (a test fails when this file drifts).
 */

export interface paths {
    "/auth-jwt/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with email and password
         * @description Answers the session user object and sets the HttpOnly session cookie (web app). API clients use the returned token as `Authorization: Bearer`. At most 10 failed logins per account per 15 minutes, 50 per IP.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The account email (spec §3: the username).
                         * @example ada@example.com
                         */
                        username: string;
                        password: string;
                        /** @description Accepted for client compatibility; not checked (no captcha provider): the rate limits apply. */
                        captcha?: string;
                        /** @description Session length in days (7, 30, 90); default 30. */
                        rememberMe?: 7 | 30 | 90;
                    };
                };
            };
            responses: {
                /** @description Logged in */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: INVALID_CREDENTIALS */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: ACCOUNT_INACTIVE, ACCOUNT_NOT_ACTIVATED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Too many attempts (see Retry-After): TOO_MANY_ATTEMPTS */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-jwt/refreshToken": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew a valid session token
         * @description Takes the token from the body, else the Authorization header, else the session cookie. A cookie session gets a renewed cookie and `token: null`; a token sent by an API client gets the new token in the body.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        token?: string;
                    };
                };
            };
            responses: {
                /** @description Renewed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-jwt/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End this session
         * @description Revokes the session on the server (its token and every renewal of it stop working) and clears the cookie. Answers 204 even without a valid session.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Logged out */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-jwt/logout-everywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End every session of the current user, on every device */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every session ended */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-jwt/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account and mail its activation link
         * @description The account can log in once the link of the activation mail is followed (single use, 48 hours). At most 20 registrations per IP per hour.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @example ada@example.com
                         */
                        username: string;
                        /** @description At least one lower case, one upper case, one digit and one special character; not a common password. */
                        password: string;
                        firstname: string;
                        lastname: string;
                        company?: string | null;
                        /**
                         * @description ISO 3166-1 alpha-2 code, e.g. FR.
                         * @example FR
                         */
                        country: string;
                        preferLanguage?: components["schemas"]["Language"] & unknown;
                        /** @description Page of this application the mail link opens (e.g. https://app/#/reset-password-token); the token is appended. Must be on PUBLIC_URL. */
                        activateUserUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Account created, waiting for activation */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: components["schemas"]["User"];
                            /** @description False when the mail could not be sent: ask again with /auth-jwt/registration-mail. */
                            activationMailSent: boolean;
                        };
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_EMAIL, DISPOSABLE_EMAIL, WEAK_PASSWORD, COMMON_PASSWORD, UNKNOWN_COUNTRY, INVALID_LINK_URL */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ACCOUNT_EXISTS */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Too many attempts (see Retry-After): TOO_MANY_ATTEMPTS */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-jwt/password-forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a password reset link
         * @description Mails a reset link (valid 1 hour, once) to the account. The answer is the same whether or not an account has this email: an unknown address gets a mail saying so. The token is never in the response. Limits: 20 per IP and 5 per address per hour.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @example ada@example.com
                         */
                        username: string;
                        /** @description Page of this application the mail link opens (e.g. https://app/#/reset-password-token); the token is appended. Must be on PUBLIC_URL. */
                        resetPasswordUrl?: string;
                    };
                };
            };
            responses: {
                /** @description A mail went to the address (a reset link, or word that it has no account) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Accepted"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_EMAIL, INVALID_LINK_URL */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Too many attempts (see Retry-After): TOO_MANY_ATTEMPTS */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Unavailable (see Retry-After): RESET_MAIL_FAILED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/resetPassword-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mail a password reset link (same as /auth-jwt/password-forgot)
         * @description Mails a reset link (valid 1 hour, once) to the account. The answer is the same whether or not an account has this email: an unknown address gets a mail saying so. The token is never in the response. Limits: 20 per IP and 5 per address per hour. Spec §7 reads as if this returned the token: it never does.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @example ada@example.com
                         */
                        username: string;
                        /** @description Page of this application the mail link opens (e.g. https://app/#/reset-password-token); the token is appended. Must be on PUBLIC_URL. */
                        resetPasswordUrl?: string;
                    };
                };
            };
            responses: {
                /** @description A mail went to the address (a reset link, or word that it has no account) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Accepted"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_EMAIL, INVALID_LINK_URL */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Too many attempts (see Retry-After): TOO_MANY_ATTEMPTS */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Unavailable (see Retry-After): RESET_MAIL_FAILED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/auth-jwt/registration-mail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail the activation link again
         * @description Mails a new activation link (valid 48 hours, once; earlier links stop working) when the account waits for activation. Same answer for any address. Limits: 20 per IP and 5 per address per hour.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @example ada@example.com
                         */
                        username: string;
                        /** @description Page of this application the mail link opens (e.g. https://app/#/reset-password-token); the token is appended. Must be on PUBLIC_URL. */
                        activateUserUrl?: string;
                    };
                };
            };
            responses: {
                /** @description A mail went to the address (an activation link, or word that none is pending) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Accepted"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_EMAIL, INVALID_LINK_URL */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Too many attempts (see Retry-After): TOO_MANY_ATTEMPTS */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Unavailable (see Retry-After): ACTIVATION_MAIL_FAILED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/registration-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mail a new activation link (same as /auth-jwt/registration-mail)
         * @description Mails a new activation link (valid 48 hours, once; earlier links stop working) when the account waits for activation. Same answer for any address. Limits: 20 per IP and 5 per address per hour. The token is only ever in the mail.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @example ada@example.com
                         */
                        username: string;
                        /** @description Page of this application the mail link opens (e.g. https://app/#/reset-password-token); the token is appended. Must be on PUBLIC_URL. */
                        activateUserUrl?: string;
                    };
                };
            };
            responses: {
                /** @description A mail went to the address (an activation link, or word that none is pending) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Accepted"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_EMAIL, INVALID_LINK_URL */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Too many attempts (see Retry-After): TOO_MANY_ATTEMPTS */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Unavailable (see Retry-After): ACTIVATION_MAIL_FAILED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/auth-jwt/recuperation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the token of a reset mail
         * @description The token works once, within an hour, for the account it was mailed to. Every session of the account ends.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The account email (spec §3: the username).
                         * @example ada@example.com
                         */
                        username: string;
                        /** @description At least one lower case, one upper case, one digit and one special character; not a common password. */
                        password: string;
                        /** @description The token from the mail link (required). */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Password changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            username: string;
                        };
                    };
                };
                /** @description Invalid request: FORM_INVALID, WEAK_PASSWORD, COMMON_PASSWORD, INVALID_RESET_LINK */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/choosePasswordAfterReset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set a new password with the token of a reset mail (the reset page)
         * @description Like /auth-jwt/recuperation; the token names the account.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description At least one lower case, one upper case, one digit and one special character; not a common password. */
                        password: string;
                        /** @description The token from the mail link (required). */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Password changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            username: string;
                        };
                    };
                };
                /** @description Invalid request: FORM_INVALID, WEAK_PASSWORD, COMMON_PASSWORD, INVALID_RESET_LINK */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/auth-jwt/activate-from-mail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate an account with the token of its activation mail */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token from the mail link (required). */
                        token: string;
                        /**
                         * @description When given, must be the account of the token.
                         * @example ada@example.com
                         */
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Activated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            username: string;
                            /** @enum {boolean} */
                            activated: true;
                        };
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_ACTIVATION_LINK */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/from-reset-password-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check a reset or activation link before using it
         * @description Does not use the token. Answers whose it is, what for and until when.
         */
        get: {
            parameters: {
                query: {
                    /** @description The token from the mail link (required). */
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The token is usable */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            username: string;
                            /** @enum {string} */
                            purpose: "password_reset" | "activation";
                            /** Format: date-time */
                            expiresAt: string;
                        };
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_RESET_LINK */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The logged-in user */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated extras: totalCredits. */
                    includes?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The current user */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CurrentUser"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the current user's preferences and profile
         * @description Only preferLanguage, preferDarkTheme, firstname, lastname, company and country. Any other field (roles, enabled, credits, email, password...) is refused with 400 FIELD_NOT_EDITABLE.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CurrentUserPatch"];
                };
            };
            responses: {
                /** @description The updated user */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, UNKNOWN_COUNTRY */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/users/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the registration form needs
         * @description Countries (ISO 3166-1 alpha-2, named in `lang` or the Accept-Language), languages and field rules.
         */
        get: {
            parameters: {
                query?: {
                    lang?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Form data */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RegistrationForm"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/totalCredits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credits (hectares) the current user has left
         * @description Credits granted (by an admin until billing lands; DEFAULT_CREDIT_HECTARES otherwise) minus the hectares charged by processings.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Credits in hectares */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            totalCredits: number;
                        };
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/current/access-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's personal access tokens
         * @description Tokens not revoked, newest first. The tokens themselves are never shown again after creation.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The tokens */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessTokenList"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Make a personal access token for a GIS tool or a script
         * @description A read-only token that opens the OGC API (`/ogc/...`: collections, items, vector tiles) as this user, sent as `Authorization: Bearer <token>` or, for tools that cannot set headers, `?token=<token>`. It never opens `/api`. The answer holds the token itself: it is shown this once (only its SHA-256 is kept). At most 50 usable tokens per user.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AccessTokenCreate"];
                };
            };
            responses: {
                /** @description The token, shown once */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedAccessToken"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ACCESS_TOKEN_LIMIT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/current/access-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a personal access token
         * @description The token stops working at once, on every server.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ACCESS_TOKEN_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users table (admin)
         * @description Table contract: limit, offset, sortBy, order ASC|DESC and search (email, names, company, country).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "email" | "firstname" | "lastname" | "company" | "country" | "createdAt" | "enabled" | "ownedProjectsCount";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of users */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a user (admin)
         * @description The account is active at once. Same email and password rules as registration.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description admin implies user. */
                        roles: components["schemas"]["Role"][];
                        userJwt: {
                            /**
                             * Format: email
                             * @example ada@example.com
                             */
                            username: string;
                            /** @description At least one lower case, one upper case, one digit and one special character; not a common password. */
                            password: string;
                        };
                        firstname?: string;
                        lastname?: string;
                        company?: string | null;
                        /**
                         * @description ISO 3166-1 alpha-2 code, e.g. FR.
                         * @example FR
                         */
                        country?: string;
                        preferLanguage?: components["schemas"]["Language"];
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_EMAIL, DISPOSABLE_EMAIL, WEAK_PASSWORD, COMMON_PASSWORD, UNKNOWN_COUNTRY */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ACCOUNT_EXISTS */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_ACCOUNT */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user's roles (admin)
         * @description Ends the user's sessions. The last enabled admin cannot lose the admin role (409 LAST_ADMIN).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roles: components["schemas"]["Role"][];
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_ACCOUNT */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: LAST_ADMIN */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/users/{id}/enabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Enable or disable a user (admin)
         * @description Disabling ends the user's sessions. The last enabled admin cannot be disabled (409 LAST_ADMIN).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled: boolean;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_ACCOUNT */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: LAST_ADMIN */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/projects/from-share-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project a share link opens (no account needed)
         * @description Read-only view of one project with its layers and signed tile URLs. Use the same token with `tiles-supplier-url-from-shared-token` and `/ogc/...?token=`.
         */
        get: {
            parameters: {
                query: {
                    /** @description The share token of the link. */
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The shared project */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/share-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create (or replace) the share token of a project
         * @description A new token replaces the old one: the old link stops working.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The token and the web link it opens */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ShareToken"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Revoke the share token of a project
         * @description The link stops opening the project at once; tile and file URLs already handed out through it stop working at once on this server and within 60 s on others.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** My projects (table contract) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "name" | "status" | "creationDate" | "area" | "lidarPointCount" | "lasName" | "creatorEmail";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of your projects (no layers) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProjectPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a project
         * @description Creates an empty project with its point cloud layer; then ask for an upload URL (POST /assets/upload-signed-url with that layer id).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NewProject"];
                };
            };
            responses: {
                /** @description The project, with its layers */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, PROJECT_NAME_REQUIRED, PROJECT_NAME_TOO_LONG, PROJECT_NAME_SLASH */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: MAX_PROJECTS_REACHED, SUBSCRIPTION_SUSPENDED, NO_SUBSCRIPTION */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: DUPLICATE_PROJECT_NAME */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project with its layers, assets and latest jobs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The project */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a project and every file it has */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted (rows and stored files) */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a project */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ProjectPatch"];
                };
            };
            responses: {
                /** @description The renamed project */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, PROJECT_NAME_REQUIRED, PROJECT_NAME_TOO_LONG, PROJECT_NAME_SLASH, FIELD_NOT_EDITABLE */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: DUPLICATE_PROJECT_NAME */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every project (admin, table contract) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "name" | "status" | "creationDate" | "area" | "lidarPointCount" | "lasName" | "creatorEmail";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of projects */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProjectPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any project (admin view) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The project */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/processing/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The products a processing run can make (the engine’s product registry)
         * @description Each product with its asset type, layer, how the viewer shows it, the products it needs and the processing options it reads; in the asset sort order of spec §3. Public: it describes the service, not a user’s data.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The products */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProductList"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Process a project with the form’s options
         * @description Queues the processing (every product the engine has, each becoming an asset). Ranges of spec §5, in cm; the major contour interval must be greater than the minor one. It starts at once when the point cloud is tiled, else when tiling ends. A mail goes out when it ends. The owner’s subscription must be active and the credits left (hectares) must cover the project area (402 INSUFFICIENT_CREDITS with details {required, available}).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ProcessingRequest"];
                };
            };
            responses: {
                /** @description Accepted (PENDING) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_PROCESSING_OPTIONS */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not enough credits: INSUFFICIENT_CREDITS */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: SUBSCRIPTION_INACTIVE, SUBSCRIPTION_SUSPENDED, NO_SUBSCRIPTION */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: PROJECT_NOT_UPLOADED, PROJECT_NOT_READY, CRS_REQUIRED, AREA_NOT_COMPUTED, PROCESSING_ALREADY_RUNNING */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Jobs of a project (metadata, tiling, processing), newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProjectJobs"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/upload-signed-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a signed upload URL (upload flow, step 1)
         * @description Creates (or resets, after a failed upload) the POINT_CLOUD asset of the layer and answers a signed, single-use URL on this API that expires in 1 hour. `lasHeaderData` is accepted and ignored: the server reads the header from the stored bytes. With `type: ORTHOPHOTO` and a .tif file (any layer of the project), the orthophoto a processing colours the cloud from (`processingOptions.orthophotoAssetId`): an ORTHOPHOTO asset in the raster layer; the project status is left as it is.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UploadUrlRequest"];
                };
            };
            responses: {
                /** @description PUT the file to signedUrl */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadUrl"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, INVALID_FILE, FILE_EMPTY, FILE_NAME_TOO_LONG, UNSUPPORTED_ASSET_TYPE, UNKNOWN_EPSG */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FILE_SIZE_LIMIT_ZERO, STORAGE_LIMIT_REACHED, SUBSCRIPTION_SUSPENDED, NO_SUBSCRIPTION */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: LAYER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_ALREADY_UPLOADED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: FILE_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/upload/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload the file to a signed URL (upload flow, step 2)
         * @description The body is streamed into the store; more bytes than declared stop it with 413, fewer leave UPLOAD_INCOMPLETE. The LAS header is then read back from the stored bytes. Any failure leaves the asset ABORTED or ERROR with nothing stored; ask for a new URL to upload again.
         */
        put: {
            parameters: {
                query: {
                    token: string;
                    expires: string;
                    signature: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/octet-stream": unknown;
                };
            };
            responses: {
                /** @description Stored; the asset is UPLOADED */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadResult"];
                    };
                };
                /** @description Invalid request: UPLOAD_INCOMPLETE, MISSING_LAS_HEADER, INVALID_FILE, FILE_EMPTY */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: UPLOAD_URL_INVALID, UPLOAD_URL_EXPIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: UPLOAD_URL_USED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: FILE_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/ion-tiler": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a point cloud in one request and start tiling (multipart)
         * @description The one-request upload path: the multipart/form-data part `file` (a .las or .laz file) is streamed into the store as the signed PUT is, with the same checks, limits and header re-read, then metadata extraction and tiling start as with start-tiling. Answers the asset (EXTRACTING_METADATA). Other parts are ignored.
         */
        post: {
            parameters: {
                query: {
                    /** @description The point cloud layer of the project. */
                    layerId: string;
                    /** @description EPSG code of the CRS, for a file without one (or to override a wrong one). */
                    epsgCode?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The LAS or LAZ file.
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Stored; the asset is EXTRACTING_METADATA, tiling follows */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Asset"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FILE_REQUIRED, INVALID_FILE, FILE_EMPTY, FILE_NAME_TOO_LONG, MISSING_LAS_HEADER, UPLOAD_INCOMPLETE, UNSUPPORTED_ASSET_TYPE, UNKNOWN_EPSG */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FILE_SIZE_LIMIT_ZERO, STORAGE_LIMIT_REACHED, SUBSCRIPTION_SUSPENDED, NO_SUBSCRIPTION */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: LAYER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_ALREADY_UPLOADED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: FILE_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/start-tiling": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start the jobs (upload flow, step 3)
         * @description Queues metadata extraction, then tiling; with `processingOptions`, the processing runs once the tileset is ready.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["StartTiling"];
                };
            };
            responses: {
                /** @description Jobs queued; the asset is EXTRACTING_METADATA */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TilingStarted"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, UNSUPPORTED_ASSET_TYPE, INVALID_PROCESSING_OPTIONS */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: SUBSCRIPTION_SUSPENDED, NO_SUBSCRIPTION, SUBSCRIPTION_INACTIVE */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_UPLOADED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Asset monitor
         * @description The asset with its metadata (intensityMin, intensityMax...) and intensity normalisation; `files` always included.
         */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    includes?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The asset */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetMonitor"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an asset and its files */
        delete: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change an asset
         * @description A new epsgCode on the point cloud (a file without CRS, or a wrong one) extracts its metadata and tiles it again.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AssetPatch"];
                };
            };
            responses: {
                /** @description The asset */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Asset"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, UNKNOWN_EPSG */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_UPLOADED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/assets/custom-tiler/tiles-supplier-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed URL of an asset’s tiles
         * @description Tiles are served under /tiles with a signature and an expiry (6 h); no session is needed per tile.
         */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    /** @description false: the signed base URL (ends with /) instead of tileset.json or the XYZ template. */
                    isTiles?: "true" | "false";
                    /** @description `hillshade`: the terrain model as hillshade tiles. */
                    variant?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuppliedUrl"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, NO_TILES */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: PROJECT_NOT_READY, ASSET_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/custom-tiler/tiles-supplier-url-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signed URL of an asset’s tiles, for a share-token holder */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    /** @description false: the signed base URL (ends with /) instead of tileset.json or the XYZ template. */
                    isTiles?: "true" | "false";
                    /** @description `hillshade`: the terrain model as hillshade tiles. */
                    variant?: string;
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuppliedUrl"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, NO_TILES, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: PROJECT_NOT_READY, ASSET_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/custom-tiler/file-supplier-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed download URL of one of an asset’s files
         * @description Signed and expiring (6 h), Range supported. The classified point cloud needs a premium subscription (403 PREMIUM_REQUIRED).
         */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    extension: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuppliedFile"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, FILE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/custom-tiler/file-supplier-url-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed download URL of an asset’s file, for a share-token holder
         * @description Read-only access to the files of a shared project (the classified point cloud stays premium-only).
         */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    extension: string;
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuppliedFile"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, FILE_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed download URL of a vector asset exported as GeoJSON, DXF or Shapefile
         * @description A vector asset (contours, grid, buildings, trees...) as GeoJSON, DXF or Shapefile: a signed, expiring (6 h) download URL, Range supported, with the download name `<project>-<asset type>.<geojson|dxf|zip>`. The export is made from the asset's stored GeoJSON on the first request (seconds for large layers) and kept beside it: later requests answer at once, until a new processing replaces the asset. The asset must be READY (409 ASSET_NOT_READY).
         */
        get: {
            parameters: {
                query: {
                    /** @description `geojson`: GeoJSON (RFC 7946, EPSG:4326, application/geo+json); `dxf`: DXF in the project CRS (image/vnd.dxf); `shp`: zipped Shapefile in the project CRS (.shp/.shx/.dbf/.prj/.cpg, application/zip). Anything else: 400 EXPORT_FORMAT_UNKNOWN. */
                    format: "geojson" | "dxf" | "shp";
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuppliedFile"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, EXPORT_FORMAT_UNKNOWN, EXPORT_NOT_VECTOR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, FILE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY, CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: EXPORT_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: EXPORT_NOT_POSSIBLE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{id}/export-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed download URL of a vector asset export, for a share-token holder
         * @description A vector asset (contours, grid, buildings, trees...) as GeoJSON, DXF or Shapefile: a signed, expiring (6 h) download URL, Range supported, with the download name `<project>-<asset type>.<geojson|dxf|zip>`. The export is made from the asset's stored GeoJSON on the first request (seconds for large layers) and kept beside it: later requests answer at once, until a new processing replaces the asset. The asset must be READY (409 ASSET_NOT_READY).
         */
        get: {
            parameters: {
                query: {
                    /** @description `geojson`: GeoJSON (RFC 7946, EPSG:4326, application/geo+json); `dxf`: DXF in the project CRS (image/vnd.dxf); `shp`: zipped Shapefile in the project CRS (.shp/.shx/.dbf/.prj/.cpg, application/zip). Anything else: 400 EXPORT_FORMAT_UNKNOWN. */
                    format: "geojson" | "dxf" | "shp";
                    token: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuppliedFile"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, EXPORT_FORMAT_UNKNOWN, EXPORT_NOT_VECTOR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, FILE_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY, CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: EXPORT_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: EXPORT_NOT_POSSIBLE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/process-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Monitor of processing jobs (table contract) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area" | "project";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                    state?: components["schemas"]["JobState"];
                    /** @description Numeric id (as a string). */
                    projectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/tiling": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Monitor of tiling jobs (table contract) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area" | "project";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                    state?: components["schemas"]["JobState"];
                    /** @description Numeric id (as a string). */
                    projectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/metadata-processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Monitor of metadata extraction jobs (table contract) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area" | "project";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                    state?: components["schemas"]["JobState"];
                    /** @description Numeric id (as a string). */
                    projectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/classification-edits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Monitor of classification edit jobs (table contract) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area" | "project";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                    state?: components["schemas"]["JobState"];
                    /** @description Numeric id (as a string). */
                    projectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/process-data/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One processing job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: JOB_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/tiling/{projectId}/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tiling job of a project */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    projectId: string;
                    /** @description Numeric id (as a string). */
                    jobId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: JOB_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/metadata-processing/{projectId}/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One metadata extraction job of a project */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    projectId: string;
                    /** @description Numeric id (as a string). */
                    jobId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: JOB_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/classification-edits/{projectId}/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One classification edit job of a project */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    projectId: string;
                    /** @description Numeric id (as a string). */
                    jobId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: JOB_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/process-data/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed processing
         * @description The same job runs again (retryCount + 1). Answers the job in PENDING ("new attempt launched"); 409 JOB_NOT_FAILED when it is not a failure ("failed to launch").
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description New attempt launched */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: JOB_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: JOB_NOT_FAILED, PROJECT_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/globalParameters/cesiumParameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Viewer parameters (point size, globe opacity, world imagery keys)
         * @description Public: shared projects are viewed without an account. The imagery keys are the browser-side keys the viewer hands to Cesium ion and Bing Maps (restrict them to this site’s domain at the provider).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The parameters */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CesiumParameters"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/globalParameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admin settings: point size, globe opacity, world imagery keys and tiling parameters */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GlobalParameters"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change admin settings
         * @description The tiling parameters are checked with the engine’s tiler option parser before they are saved.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["GlobalParametersPatch"];
                };
            };
            responses: {
                /** @description The settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GlobalParameters"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, INVALID_TILING_PARAMETERS */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/subscriptions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My current subscription
         * @description The subscription that applies now (spec §3: status, credits, allowance, allocation dates, validUntil, limits), with the projects and bytes used. 404 NO_SUBSCRIPTION without one.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The current subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CurrentSubscription"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_SUBSCRIPTION */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/current/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My credits history
         * @description Every movement of my credits, newest first: allocations, grants, reservations of processings, releases, charges, transfers.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number | null;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of the ledger */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreditsLedgerPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/current/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel my subscription
         * @description Takes effect at the anniversary (end of the period paid for): until then the subscription stays active with unsubscribePending; a paid one is cancelled at the payment provider at the end of its period.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription, cancellation pending */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_SUBSCRIPTION */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: SUBSCRIPTION_STATE_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: PAYMENT_PROVIDER_ERROR */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscriptions table (admin, tab subscribed)
         * @description Table contract (limit, offset, sortBy, order, search on name, user email, template, payment id) with filters status, userId, templateId and current.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "name" | "user" | "template" | "status" | "globalStatus" | "category" | "credits" | "startDate" | "endDate" | "validUntil" | "nextAllocationDate" | "createdAt";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                    /** @description Spec §4: active; inactive (not activated, replaced or deactivated: no processing); suspended (no project creation, upload or processing); unsubscribed (cancelled and ended). */
                    status?: components["schemas"]["SubscriptionStatus"];
                    userId?: string;
                    templateId?: string;
                    /** @description true: only the subscription that applies to each user now. */
                    current?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Subscribe a user to a template (admin)
         * @description activate (default true): it becomes the user's current subscription now, with the template's credits (the previous one hands its credits over); false: it waits, inactive.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        userId: string;
                        templateId: string;
                        activate?: boolean;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_ACCOUNT, TEMPLATE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/suspend-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend all subscriptions of a user, or of everyone (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description How many were suspended */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            suspended: number;
                        };
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/activate-last": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate a user's last subscription (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Activated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_SUBSCRIPTION */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One subscription with its history (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription and who changed what, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionDetail"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit a subscription (admin)
         * @description Fields left out keep their value; null limits mean the configured default. Audited.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SubscriptionEdit"];
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/subscriptions/{id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A subscription's credits ledger (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number | null;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of the ledger */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreditsLedgerPage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/{id}/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant or remove credits by hand (admin)
         * @description hectares > 0 adds them (a grant), < 0 takes them off (409 CREDITS_NEGATIVE below zero). Written to the ledger with the admin and the note.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        hectares: number;
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CREDITS_NEGATIVE */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a subscription (admin)
         * @description Activate: active, enabled and the user’s current subscription (spec §4). Audited (who, when).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: SUBSCRIPTION_STATE_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/{id}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suspend a subscription (admin)
         * @description Suspend: no project creation, upload or processing until reactivated. Audited (who, when).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: SUBSCRIPTION_STATE_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/{id}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a subscription (admin)
         * @description Reactivate a suspended (or deactivated) subscription. Audited (who, when).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: SUBSCRIPTION_STATE_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a subscription (admin)
         * @description Cancel at the anniversary: stays active with unsubscribePending until validUntil, then the scheduled job ends it. Audited (who, when).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: SUBSCRIPTION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: SUBSCRIPTION_STATE_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: PAYMENT_PROVIDER_ERROR */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscription-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Templates table (admin, tab templates) */
        get: {
            parameters: {
                query?: {
                    /** @description Rows per page. */
                    limit?: number;
                    offset?: number | null;
                    sortBy?: "id" | "name" | "category" | "enabled" | "credits" | "creditsAllowance" | "price" | "activeSubscriptions" | "createdAt";
                    order?: "ASC" | "DESC";
                    /** @description Case-insensitive text search. */
                    search?: string;
                    enabled?: "true" | "false";
                    /** @description PAID (bought through the payment provider or given by an admin) or FREEMIUM. */
                    category?: components["schemas"]["SubscriptionCategory"];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionTemplatePage"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a template (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SubscriptionTemplateInput"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionTemplate"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/subscription-templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One template with its history (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The template */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionTemplateDetail"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: TEMPLATE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit, deactivate or reactivate a template (admin)
         * @description enabled false deactivates it (not offered nor subscribed to any more; subscriptions made from it go on), true reactivates it. Audited.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SubscriptionTemplateEdit"];
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionTemplate"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: TEMPLATE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/billing/offers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What can be bought (buy page)
         * @description The enabled PAID templates open now. paymentsConfigured is false without STRIPE_SECRET_KEY: the page then says purchases are not configured.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Offers */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Offers"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a purchase (Stripe Checkout)
         * @description Answers the Stripe Checkout page to send the browser to: a subscription for a template with a period, a one-off payment for a pack. Stripe then returns to #/user/subscription/buy/success or …/cancel with session_id.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        templateId: string;
                    };
                };
            };
            responses: {
                /** @description Go there */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CheckoutStart"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: TEMPLATE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: TEMPLATE_NOT_AVAILABLE */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: PAYMENT_PROVIDER_ERROR */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Unavailable (see Retry-After): PAYMENTS_NOT_CONFIGURED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/checkout/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A purchase of mine (success page)
         * @description Brought up to date from Stripe when the webhook has not told yet, so the success page shows the credits added and the subscription ready.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The purchase */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Purchase"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: CHECKOUT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: PAYMENT_PROVIDER_ERROR */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/checkout/{sessionId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a purchase (cancel page)
         * @description The Checkout session is expired at Stripe so it cannot be paid later; one paid meanwhile is completed instead.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The purchase */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Purchase"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: CHECKOUT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: PAYMENT_PROVIDER_ERROR */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/stripe/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe webhook
         * @description Called by Stripe. The Stripe-Signature header is checked on the raw body with STRIPE_WEBHOOK_SECRET (5 minutes of tolerance). Each event id is applied once (replays answer duplicate: true); events may come in any order. Handles checkout.session.completed/expired, invoice.paid, invoice.payment_failed (suspension after PAYMENT_GRACE_DAYS) and customer.subscription.created/updated/deleted.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "stripe-signature"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Received */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookReceipt"];
                    };
                };
                /** @description Invalid request: WEBHOOK_SIGNATURE_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: PAYMENT_PROVIDER_ERROR */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Unavailable (see Retry-After): PAYMENTS_NOT_CONFIGURED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/statistics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Statistics of the platform (admin)
         * @description Series per day or month over [from, to] (days, UTC, both included; default the last 12 months by month, at most 400 periods): users and projects (added, running total), hectares processed, processings ended well or not, revenue per currency; and now: storage used, subscriptions per template and status, totals.
         */
        get: {
            parameters: {
                query?: {
                    from?: string;
                    to?: string;
                    interval?: "day" | "month";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The statistics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Statistics"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/measure/crs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project CRS as a proj4 definition with its units, for the viewer’s measurement tools */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The CRS */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeasureCrs"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/measure/crs-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project CRS for the measurement tools, for a share-token holder */
        get: {
            parameters: {
                query: {
                    /** @description The project’s share token. */
                    token: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The CRS */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeasureCrs"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/measure/dtm-heights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * DTM heights at points of the project CRS
         * @description Heights of the project’s DTM at points given in the project CRS, for the viewer’s height-above-ground tool (point Z minus the DTM at its X, Y). 404 ASSET_NOT_FOUND when the project has no DTM.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DtmHeightsRequest"];
                };
            };
            responses: {
                /** @description The heights */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DtmHeights"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, ASSET_NOT_FOUND, FILE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/measure/dtm-heights-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * DTM heights at points of the project CRS, for a share-token holder
         * @description Heights of the project’s DTM at points given in the project CRS, for the viewer’s height-above-ground tool (point Z minus the DTM at its X, Y). 404 ASSET_NOT_FOUND when the project has no DTM.
         */
        post: {
            parameters: {
                query: {
                    /** @description The project’s share token. */
                    token: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DtmHeightsRequest"];
                };
            };
            responses: {
                /** @description The heights */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DtmHeights"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, ASSET_NOT_FOUND, FILE_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/clip/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Estimated point count and size of a clip
         * @description The area is a GeoJSON geometry in EPSG:4326, moved into the project CRS. Areas over 100 km² are refused (413 CLIP_AREA_TOO_LARGE). The owner, an admin or a share-token holder may clip the original cloud; the classified cloud needs a premium subscription (spec §6). The estimate comes from the stored header (point density over the area): no point is read.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ClipRequest"];
                };
            };
            responses: {
                /** @description The estimate */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClipEstimate"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, CLIP_FORMAT_UNAVAILABLE */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, ASSET_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY, ASSET_NOT_UPLOADED, CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: CLIP_AREA_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/clip/estimate-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Estimated point count and size of a clip, for a share-token holder
         * @description The area is a GeoJSON geometry in EPSG:4326, moved into the project CRS. Areas over 100 km² are refused (413 CLIP_AREA_TOO_LARGE). The owner, an admin or a share-token holder may clip the original cloud; the classified cloud needs a premium subscription (spec §6).
         */
        post: {
            parameters: {
                query: {
                    /** @description The project’s share token. */
                    token: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ClipRequest"];
                };
            };
            responses: {
                /** @description The estimate */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClipEstimate"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, CLIP_FORMAT_UNAVAILABLE */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, ASSET_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY, ASSET_NOT_UPLOADED, CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: CLIP_AREA_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/clip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clip the points inside an area into a LAS or LAZ file (a job)
         * @description The area is a GeoJSON geometry in EPSG:4326, moved into the project CRS. Areas over 100 km² are refused (413 CLIP_AREA_TOO_LARGE). The owner, an admin or a share-token holder may clip the original cloud; the classified cloud needs a premium subscription (spec §6). Answers 202 with the clip's status; poll GET /projects/{id}/clip/{clipId} until SUCCESS (then `url` is a signed download URL) or FAILURE.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ClipRequest"];
                };
            };
            responses: {
                /** @description The clip is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClipStatus"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, CLIP_FORMAT_UNAVAILABLE */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, ASSET_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY, ASSET_NOT_UPLOADED, CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: CLIP_AREA_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/clip-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clip the points inside an area, for a share-token holder
         * @description The area is a GeoJSON geometry in EPSG:4326, moved into the project CRS. Areas over 100 km² are refused (413 CLIP_AREA_TOO_LARGE). The owner, an admin or a share-token holder may clip the original cloud; the classified cloud needs a premium subscription (spec §6).
         */
        post: {
            parameters: {
                query: {
                    /** @description The project’s share token. */
                    token: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ClipRequest"];
                };
            };
            responses: {
                /** @description The clip is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClipStatus"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, CLIP_FORMAT_UNAVAILABLE */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, ASSET_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: ASSET_NOT_READY, ASSET_NOT_UPLOADED, CRS_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Error: CLIP_AREA_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/clip/{clipId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** State, progress and download URL of a clip */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    /** @description The clip id (24 hex digits). */
                    clipId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The clip */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClipStatus"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, CLIP_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/clip/{clipId}/from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** State, progress and download URL of a clip, for a share-token holder */
        get: {
            parameters: {
                query: {
                    /** @description The project’s share token. */
                    token: string;
                };
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    /** @description The clip id (24 hex digits). */
                    clipId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The clip */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClipStatus"];
                    };
                };
                /** @description Not allowed: PREMIUM_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, CLIP_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/classification-edits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The classification edits of a project, its apply job and undo/redo state
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The edits */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEdits"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a classification edit (and apply it)
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED). The edit is stored ACTIVE; edits undone since the last new edit stay REVERTED (redo is cleared); the apply job is queued.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ClassificationEditRequest"];
                };
            };
            responses: {
                /** @description The edit is stored; the apply job is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEditQueued"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, INVALID_CLASS */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/classification-edits/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * How many points an edit would change now
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED). The exact count from the current classified cloud (points already of toClass are not counted), by class before.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ClassificationEditRequest"];
                };
            };
            responses: {
                /** @description The count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEditChange"];
                    };
                };
                /** @description Invalid request: FORM_INVALID, FIELD_NOT_EDITABLE, INVALID_CLASS */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/classification-edits/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo the last active edit
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED). Answers 202 with the edit and the apply job; the job recomputes the classified cloud from the processing’s with every ACTIVE edit.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The edit changed; the apply job is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEditQueued"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED, NOTHING_TO_UNDO */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/classification-edits/redo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redo the most recently undone edit
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED). Answers 202 with the edit and the apply job; the job recomputes the classified cloud from the processing’s with every ACTIVE edit.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The edit changed; the apply job is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEditQueued"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED, NOTHING_TO_REDO */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/classification-edits/{editId}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revert an active edit (history)
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED). Answers 202 with the edit and the apply job; the job recomputes the classified cloud from the processing’s with every ACTIVE edit.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    /** @description Numeric id (as a string). */
                    editId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The edit changed; the apply job is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEditQueued"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, CLASSIFICATION_EDIT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED, CLASSIFICATION_EDIT_NOT_ACTIVE */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{id}/classification-edits/{editId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a reverted edit (history)
         * @description The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED). Answers 202 with the edit and the apply job; the job recomputes the classified cloud from the processing’s with every ACTIVE edit.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    /** @description Numeric id (as a string). */
                    editId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The edit changed; the apply job is queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClassificationEditQueued"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: PROJECT_NOT_FOUND, CLASSIFICATION_EDIT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: CLASSIFIED_CLOUD_REQUIRED, CLASSIFICATION_EDIT_NOT_REVERTED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/custom-tiler/terrain-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed terrain tiles of a DTM asset (Cesium heightmaps, ellipsoidal heights)
         * @description Heightmap tiles made from the DTM GeoTIFF, reprojected to WGS84 with the geoid undulation added to orthometric heights; signed and expiring (6 h) like the other tile URLs.
         */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The tile URL template and the terrain’s footprint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TerrainUrl"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description No valid session: UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, NO_TILES, FILE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: PROJECT_NOT_READY, ASSET_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/custom-tiler/terrain-url-from-shared-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signed terrain tiles of a DTM asset, for a share-token holder */
        get: {
            parameters: {
                query: {
                    /** @description Numeric id (as a string). */
                    id: string;
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The tile URL template and the terrain’s footprint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TerrainUrl"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: ASSET_NOT_FOUND, NO_TILES, FILE_NOT_FOUND, SHARE_TOKEN_INVALID */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Conflict: PROJECT_NOT_READY, ASSET_NOT_READY */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/custom-tiler/terrain-url-from-tiles-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signed terrain tiles of the project a signed tile URL belongs to
         * @description For a viewer that holds a signed tile URL of the project (its point cloud’s tileset.json): the URL is checked as a tile request is (signature, expiry, share link), and the terrain URL carries the same share grant. 404 NO_TILES when the project has no READY DTM.
         */
        get: {
            parameters: {
                query: {
                    tilesUrl: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The tile URL template and the terrain’s footprint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TerrainUrl"];
                    };
                };
                /** @description Invalid request: FORM_INVALID */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not allowed: TILE_URL_INVALID, TILE_URL_EXPIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found: NO_TILES, FILE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        SessionUser: {
            /** @description Bearer token for API clients (Authorization: Bearer). Null when the session was renewed through the HttpOnly cookie: the web app never needs to read it. */
            token: string | null;
            /**
             * Format: date-time
             * @description When this token was issued.
             */
            loginDate: string;
            /** Format: date-time */
            expiresAt: string;
            rememberDays: 7 | 30 | 90;
            user: components["schemas"]["User"];
            /** @enum {boolean} */
            loggedIn: true;
        };
        User: {
            /** @example 42 */
            id: string;
            /** @description Same as email. */
            username: string;
            email: string;
            firstname: string;
            lastname: string;
            company: string | null;
            country: string | null;
            roles: components["schemas"]["Role"][];
            preferLanguage: components["schemas"]["Language"];
            preferDarkTheme: boolean;
            enabled: boolean;
            /** @description False until the activation link of the registration mail is used. */
            activated: boolean;
            premium: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            lastLoginAt: string | null;
            ownedProjectsCount: number;
        };
        /** @enum {string} */
        Role: "user" | "admin";
        /** @enum {string} */
        Language: "en-US" | "fr";
        ErrorBody: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description English text for logs and developers; translate `code`. */
                message: string;
                /** @description FORM_INVALID and friends: `fields` [{ field, code, issue, message }]. 429 and mail failures: `retryAfterSeconds`. */
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description - `NOT_FOUND` (404): No such endpoint or resource.
         *     - `INTERNAL` (500): Internal server error.
         *     - `PAYLOAD_TOO_LARGE` (413): The request body is too large.
         *     - `UNSUPPORTED_MEDIA_TYPE` (415): The request body must be JSON (Content-Type: application/json).
         *     - `VALIDATION_FAILED` (400): The request does not have the expected shape.
         *     - `DATABASE_UNAVAILABLE` (503): The database cannot be reached.
         *     - `UNAUTHORIZED` (401): Authentication is required: log in.
         *     - `FORBIDDEN` (403): Your role does not allow this.
         *     - `CROSS_SITE_REQUEST` (403): A POST, PUT, PATCH or DELETE carrying the session cookie came from another site (Origin / Sec-Fetch-Site): refused.
         *     - `FORM_INVALID` (400): Form errors: one or more fields are invalid (details.fields lists each field with its own code).
         *     - `INVALID_EMAIL` (400): The email is not valid (it needs a top-level domain of 2 letters or more).
         *     - `DISPOSABLE_EMAIL` (400): Disposable email addresses are not allowed.
         *     - `WEAK_PASSWORD` (400): The password needs 8 to 255 characters with a lower case, an upper case, a digit and a special character.
         *     - `COMMON_PASSWORD` (400): This password is too common; choose another one.
         *     - `UNKNOWN_COUNTRY` (400): The country is not in the list of ISO 3166 countries.
         *     - `INVALID_LINK_URL` (400): resetPasswordUrl or activateUserUrl must point at this application (PUBLIC_URL).
         *     - `INVALID_CREDENTIALS` (401): Invalid email or password.
         *     - `NO_ACCOUNT` (404): No account with this email or id. Shown to admins only: login and password-forgot never reveal whether an account exists.
         *     - `ACCOUNT_EXISTS` (409): An account already exists with this email.
         *     - `ACCOUNT_INACTIVE` (403): The account is disabled: contact support.
         *     - `ACCOUNT_NOT_ACTIVATED` (403): The account is not activated yet: follow the link in the activation mail (or ask for a new one).
         *     - `INVALID_RESET_LINK` (400): Invalid reset link, or missing or expired token.
         *     - `INVALID_ACTIVATION_LINK` (400): Invalid activation link, or missing or expired token.
         *     - `RESET_MAIL_FAILED` (503): The reset mail could not be sent; try again after Retry-After seconds.
         *     - `ACTIVATION_MAIL_FAILED` (503): The activation mail could not be sent; try again after Retry-After seconds.
         *     - `TOO_MANY_ATTEMPTS` (429): Too many attempts; try again after Retry-After seconds.
         *     - `TOKEN_INVALID` (401): The session token is malformed, forged or signed with another key.
         *     - `TOKEN_EXPIRED` (401): The session token has expired: log in again.
         *     - `TOKEN_REVOKED` (401): The session was ended (logout, logout everywhere, password reset, role change or account disabled).
         *     - `FIELD_NOT_EDITABLE` (400): This field cannot be changed here (roles, enabled, credits, email, password).
         *     - `LAST_ADMIN` (409): The last admin cannot lose the admin role or be disabled.
         *     - `PROJECT_NOT_FOUND` (404): No such project, or not one you may see.
         *     - `DUPLICATE_PROJECT_NAME` (409): You already have a project with this name.
         *     - `PROJECT_NAME_REQUIRED` (400): The project name is required.
         *     - `PROJECT_NAME_TOO_LONG` (400): The project name must be under 255 characters.
         *     - `PROJECT_NAME_SLASH` (400): The project name cannot contain a slash.
         *     - `MAX_PROJECTS_REACHED` (403): Maximum number of projects reached.
         *     - `FILE_TOO_LARGE` (413): The file size exceeds the limit (details.limit, bytes).
         *     - `FILE_SIZE_LIMIT_ZERO` (403): Your subscription allows no upload (file size limit 0): subscribe to a new plan.
         *     - `STORAGE_LIMIT_REACHED` (403): Storage limit reached.
         *     - `LAYER_NOT_FOUND` (404): No such layer, or not one you may change.
         *     - `ASSET_NOT_FOUND` (404): No such asset, or not one you may see.
         *     - `UNSUPPORTED_ASSET_TYPE` (400): Only POINT_CLOUD assets are uploaded; other types are made by processing.
         *     - `INVALID_FILE` (400): The file is invalid (not a LAS/LAZ file, or its header is inconsistent).
         *     - `MISSING_LAS_HEADER` (400): The file has no LAS header.
         *     - `FILE_EMPTY` (400): The file is empty (0 bytes): select a LAS or LAZ file.
         *     - `FILE_NAME_TOO_LONG` (400): The file name must be under 255 characters (details.max, details.length).
         *     - `FILE_REQUIRED` (400): A file must be selected (POST /assets/ion-tiler: the multipart/form-data part `file`).
         *     - `ASSET_ALREADY_UPLOADED` (409): This project already has its point cloud.
         *     - `UPLOAD_URL_INVALID` (403): The upload URL is not valid (altered or for another asset).
         *     - `UPLOAD_URL_EXPIRED` (403): The upload URL has expired: ask for a new one.
         *     - `UPLOAD_URL_USED` (409): The upload URL was already used: ask for a new one.
         *     - `UPLOAD_INCOMPLETE` (400): The upload ended before the declared file size.
         *     - `ASSET_NOT_UPLOADED` (409): The point cloud is not uploaded (or is already being tiled).
         *     - `CRS_REQUIRED` (409): The point cloud has no coordinate reference system: set the asset epsgCode (PATCH /assets).
         *     - `UNKNOWN_EPSG` (400): This EPSG code is not a known coordinate reference system.
         *     - `PROJECT_NOT_UPLOADED` (409): Upload the point cloud first.
         *     - `PROJECT_NOT_READY` (409): Project is not ready (details.status).
         *     - `ASSET_NOT_READY` (409): The asset is not ready (details.status).
         *     - `NO_TILES` (404): The asset does not have a valid accessUrl (it has no tiles).
         *     - `FILE_NOT_FOUND` (404): The asset has no file with this extension.
         *     - `EXPORT_FORMAT_UNKNOWN` (400): The export format (query parameter `format`) must be geojson, dxf or shp (details.allowed).
         *     - `EXPORT_NOT_VECTOR` (400): Only vector assets are exported as GeoJSON, DXF or Shapefile; download other assets as they are.
         *     - `EXPORT_TOO_LARGE` (413): The layer is too large for this format (a Shapefile holds at most 2 GB): export GeoJSON or DXF.
         *     - `EXPORT_NOT_POSSIBLE` (422): This layer cannot be written in this format (the message says why, details.format names it).
         *     - `AREA_NOT_COMPUTED` (409): The area could not be calculated: contact support.
         *     - `SUBSCRIPTION_SUSPENDED` (403): Your subscription is suspended: contact support (no project creation, upload or processing).
         *     - `NO_SUBSCRIPTION` (403): No subscription found: contact support (no project creation, upload or processing).
         *     - `SUBSCRIPTION_INACTIVE` (403): Your subscription is inactive or cancelled (details.status): subscribe again to process projects.
         *     - `INSUFFICIENT_CREDITS` (402): Insufficient credits: the project area (details.required, hectares) is more than your credits left (details.available): subscribe or buy credits.
         *     - `PROCESSING_ALREADY_RUNNING` (409): This project is already being processed.
         *     - `INVALID_PROCESSING_OPTIONS` (400): A processing option is out of its range (spec §5; major contour interval > minor).
         *     - `JOB_NOT_FOUND` (404): No such job.
         *     - `JOB_NOT_FAILED` (409): Only a failed processing can be retried.
         *     - `SHARE_TOKEN_INVALID` (404): This share link is not valid (revoked or mistyped).
         *     - `PREMIUM_REQUIRED` (403): Downloading the classified point cloud needs a premium subscription (show the upgrade prompt).
         *     - `TILE_URL_INVALID` (403): The tile or file URL is not valid (altered signature).
         *     - `TILE_URL_EXPIRED` (403): The tile or file URL has expired: ask for a new one.
         *     - `INVALID_RANGE` (416): The requested byte range is outside the file.
         *     - `INVALID_TILING_PARAMETERS` (400): The tiling parameters text is not valid tiler options.
         *     - `INVALID_BBOX` (400): bbox must be minx,miny,maxx,maxy (or 6 numbers with heights) in bbox-crs (default CRS84: lon,lat).
         *     - `INVALID_PARAMETER` (400): A query parameter of an OGC API request is not valid (details.parameter names it: limit, f, datetime...).
         *     - `INVALID_CRS` (400): crs or bbox-crs is not a CRS the collection offers (details.parameter, details.supported).
         *     - `INVALID_FILTER` (400): filter is not CQL2 text this server understands, or names a property that is not a queryable (details.parameter).
         *     - `ACCESS_TOKEN_INVALID` (401): The access token or share token is not valid (unknown, revoked or expired).
         *     - `ACCESS_TOKEN_NOT_FOUND` (404): You have no such personal access token.
         *     - `ACCESS_TOKEN_LIMIT` (409): You have as many personal access tokens as allowed (50): revoke one you no longer use.
         *     - `SUBSCRIPTION_NOT_FOUND` (404): No such subscription.
         *     - `SUBSCRIPTION_STATE_CONFLICT` (409): The subscription is not in a status this action applies to (details.status).
         *     - `TEMPLATE_NOT_FOUND` (404): No such subscription template.
         *     - `TEMPLATE_NOT_AVAILABLE` (409): This offer cannot be bought now (template disabled, not PAID, outside its dates or without a price).
         *     - `CREDITS_NEGATIVE` (409): Credits never go below zero: fewer hectares are available than this takes off (details.available).
         *     - `PAYMENTS_NOT_CONFIGURED` (503): Purchases are not configured on this server (no STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET).
         *     - `PAYMENT_PROVIDER_ERROR` (502): The payment provider failed: try again later.
         *     - `CHECKOUT_NOT_FOUND` (404): No such purchase of yours.
         *     - `WEBHOOK_SIGNATURE_INVALID` (400): The webhook signature is missing, wrong or older than 5 minutes.
         *     - `CLIP_AREA_TOO_LARGE` (413): The clip area is larger than a clip may cover (details.maxAreaSquareMetres): draw a smaller one.
         *     - `CLIP_FORMAT_UNAVAILABLE` (400): LAZ output is offered for point formats 0-3 without extra bytes only (details.formats): ask for LAS.
         *     - `CLIP_NOT_FOUND` (404): No such clip in this project.
         *     - `CLIP_EMPTY` (422): No point of the cloud is inside the area with the classes and returns asked (a failed clip job).
         *     - `CLASSIFIED_CLOUD_REQUIRED` (409): Classification edits need the classified point cloud of a finished processing: process the project first.
         *     - `INVALID_CLASS` (400): A class code that is not in the list of point classes (LAS codes 0 to 28 without 8 and 12).
         *     - `NOTHING_TO_UNDO` (409): No active classification edit to undo.
         *     - `NOTHING_TO_REDO` (409): No undone classification edit to redo (a new edit clears them).
         *     - `CLASSIFICATION_EDIT_NOT_FOUND` (404): No such classification edit in this project.
         *     - `CLASSIFICATION_EDIT_NOT_ACTIVE` (409): This classification edit is already reverted.
         *     - `CLASSIFICATION_EDIT_NOT_REVERTED` (409): This classification edit is already active.
         *     - `CLASSIFICATION_EDIT_FAILED` (500): Applying the classification edits failed (a failed classification edit job; the message says why).
         * @enum {string}
         */
        ErrorCode: "NOT_FOUND" | "INTERNAL" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_FAILED" | "DATABASE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "CROSS_SITE_REQUEST" | "FORM_INVALID" | "INVALID_EMAIL" | "DISPOSABLE_EMAIL" | "WEAK_PASSWORD" | "COMMON_PASSWORD" | "UNKNOWN_COUNTRY" | "INVALID_LINK_URL" | "INVALID_CREDENTIALS" | "NO_ACCOUNT" | "ACCOUNT_EXISTS" | "ACCOUNT_INACTIVE" | "ACCOUNT_NOT_ACTIVATED" | "INVALID_RESET_LINK" | "INVALID_ACTIVATION_LINK" | "RESET_MAIL_FAILED" | "ACTIVATION_MAIL_FAILED" | "TOO_MANY_ATTEMPTS" | "TOKEN_INVALID" | "TOKEN_EXPIRED" | "TOKEN_REVOKED" | "FIELD_NOT_EDITABLE" | "LAST_ADMIN" | "PROJECT_NOT_FOUND" | "DUPLICATE_PROJECT_NAME" | "PROJECT_NAME_REQUIRED" | "PROJECT_NAME_TOO_LONG" | "PROJECT_NAME_SLASH" | "MAX_PROJECTS_REACHED" | "FILE_TOO_LARGE" | "FILE_SIZE_LIMIT_ZERO" | "STORAGE_LIMIT_REACHED" | "LAYER_NOT_FOUND" | "ASSET_NOT_FOUND" | "UNSUPPORTED_ASSET_TYPE" | "INVALID_FILE" | "MISSING_LAS_HEADER" | "FILE_EMPTY" | "FILE_NAME_TOO_LONG" | "FILE_REQUIRED" | "ASSET_ALREADY_UPLOADED" | "UPLOAD_URL_INVALID" | "UPLOAD_URL_EXPIRED" | "UPLOAD_URL_USED" | "UPLOAD_INCOMPLETE" | "ASSET_NOT_UPLOADED" | "CRS_REQUIRED" | "UNKNOWN_EPSG" | "PROJECT_NOT_UPLOADED" | "PROJECT_NOT_READY" | "ASSET_NOT_READY" | "NO_TILES" | "FILE_NOT_FOUND" | "EXPORT_FORMAT_UNKNOWN" | "EXPORT_NOT_VECTOR" | "EXPORT_TOO_LARGE" | "EXPORT_NOT_POSSIBLE" | "AREA_NOT_COMPUTED" | "SUBSCRIPTION_SUSPENDED" | "NO_SUBSCRIPTION" | "SUBSCRIPTION_INACTIVE" | "INSUFFICIENT_CREDITS" | "PROCESSING_ALREADY_RUNNING" | "INVALID_PROCESSING_OPTIONS" | "JOB_NOT_FOUND" | "JOB_NOT_FAILED" | "SHARE_TOKEN_INVALID" | "PREMIUM_REQUIRED" | "TILE_URL_INVALID" | "TILE_URL_EXPIRED" | "INVALID_RANGE" | "INVALID_TILING_PARAMETERS" | "INVALID_BBOX" | "INVALID_PARAMETER" | "INVALID_CRS" | "INVALID_FILTER" | "ACCESS_TOKEN_INVALID" | "ACCESS_TOKEN_NOT_FOUND" | "ACCESS_TOKEN_LIMIT" | "SUBSCRIPTION_NOT_FOUND" | "SUBSCRIPTION_STATE_CONFLICT" | "TEMPLATE_NOT_FOUND" | "TEMPLATE_NOT_AVAILABLE" | "CREDITS_NEGATIVE" | "PAYMENTS_NOT_CONFIGURED" | "PAYMENT_PROVIDER_ERROR" | "CHECKOUT_NOT_FOUND" | "WEBHOOK_SIGNATURE_INVALID" | "CLIP_AREA_TOO_LARGE" | "CLIP_FORMAT_UNAVAILABLE" | "CLIP_NOT_FOUND" | "CLIP_EMPTY" | "CLASSIFIED_CLOUD_REQUIRED" | "INVALID_CLASS" | "NOTHING_TO_UNDO" | "NOTHING_TO_REDO" | "CLASSIFICATION_EDIT_NOT_FOUND" | "CLASSIFICATION_EDIT_NOT_ACTIVE" | "CLASSIFICATION_EDIT_NOT_REVERTED" | "CLASSIFICATION_EDIT_FAILED";
        /** @description The request was taken; the outcome goes to the mailbox only. */
        Accepted: {
            /** @enum {boolean} */
            accepted: true;
        };
        CurrentUser: components["schemas"]["User"] & {
            totalCredits?: number;
        };
        CurrentUserPatch: {
            preferLanguage?: components["schemas"]["Language"];
            preferDarkTheme?: boolean;
            firstname?: string;
            lastname?: string;
            company?: string | null;
            /**
             * @description ISO 3166-1 alpha-2 code, e.g. FR.
             * @example FR
             */
            country?: string;
        };
        RegistrationForm: {
            countries: {
                code: string;
                name: string;
            }[];
            languages: components["schemas"]["Language"][];
            rules: {
                passwordMinLength: number;
                passwordMaxLength: number;
                passwordRequires: ("lowercase" | "uppercase" | "digit" | "special")[];
                nameMaxLength: number;
                companyMaxLength: number;
                disposableEmailsRefused: boolean;
            };
        };
        AccessTokenList: {
            results: components["schemas"]["AccessToken"][];
        };
        AccessToken: {
            /** @example 12 */
            id: string;
            /** @example QGIS on my laptop */
            name: string;
            /** @description The first characters of the token, to tell tokens apart. */
            prefix: string;
            /**
             * @description Read-only: OGC API collections, items and vector tiles.
             * @enum {string}
             */
            scope: "read";
            createdAt: string;
            /** @description Last use, to the minute; null when never used. */
            lastUsedAt: string | null;
            /** @description When it stops working; null: until revoked. */
            expiresAt: string | null;
            expired: boolean;
        };
        CreatedAccessToken: components["schemas"]["AccessToken"] & {
            /** @description The token: copy it now, it is not shown again. */
            token: string;
        };
        AccessTokenCreate: {
            /** @example QGIS on my laptop */
            name: string;
            /** @description Days until it stops working; omitted or null: until revoked. */
            expiresInDays?: number | null;
        };
        UserPage: {
            /** @description Rows matching, over all pages. */
            count: number;
            results: components["schemas"]["User"][];
        };
        Project: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            name: string;
            status: components["schemas"]["ProjectStatus"];
            lasName: string | null;
            /** @description Covered area in hectares. */
            area: number | null;
            systemId: string | null;
            generatingSoftware: string | null;
            creationDay: number | null;
            creationYear: number | null;
            lidarPointCount: number | null;
            maxElevation: number | null;
            minElevation: number | null;
            /** @description Size of the LAS/LAZ file in GB. */
            pointCloudMemory: number | null;
            lasVersion: string | null;
            epsgCode: number | null;
            creatorEmail: string;
            creationDate: string;
            updatedAt: string;
            errorCode: string | null;
            errorMessage: string | null;
            /** @description Owner and admins only. */
            shareToken?: string | null;
            /** @description Vertical reference of the point cloud heights (heights: orthometric|ellipsoidal, name, epsg, source: crs|assumed, geoidModel, undulationMetres) — the globe adds the geoid undulation to orthometric heights. */
            verticalReference?: {
                [key: string]: unknown;
            } | null;
            /** @description The file header’s bounds were smaller than its points; the true bounds were read (a warning). */
            headerBoundsWarning?: {
                header: {
                    [key: string]: number;
                };
                actual: {
                    [key: string]: number;
                } | null;
            } | null;
            /** @description In the layer order of spec §3. */
            layers?: components["schemas"]["Layer"][];
            /** @description The latest job of each kind. */
            jobs?: {
                metadata?: components["schemas"]["JobSummary"];
                tiling?: components["schemas"]["JobSummary"];
                processing?: components["schemas"]["JobSummary"];
            };
        };
        /** @enum {string} */
        ProjectStatus: "NONE" | "PENDING" | "UPLOADING" | "UPLOADED" | "PROCESSING" | "READY" | "ERROR";
        Layer: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            name: string;
            /** @enum {string} */
            type: "POINT_CLOUD" | "RASTER" | "VECTOR" | "REPORT";
            /** @description In the asset order of spec §3. */
            assets: components["schemas"]["Asset"][];
        };
        Asset: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            layerId: string;
            type: components["schemas"]["AssetType"];
            status: components["schemas"]["AssetStatus"];
            name: string;
            /** @enum {string} */
            storage: "CESIUM_ION" | "CUSTOM_TILING";
            /** @enum {string|null} */
            tilingType: "GOCESIUM_TILER" | "PY3DTILES" | null;
            /**
             * @description How a viewer shows it (product registry): 3D Tiles, raster tiles, OGC features or a download.
             * @enum {string}
             */
            display: "pointCloud" | "raster" | "vector" | "download";
            /** @description When READY: signed URL of tileset.json (point clouds) or of the `{z}/{x}/{y}.png` template (rasters); expires after 6 h. */
            accessUrl: string | null;
            files: components["schemas"]["AssetFile"][];
            originalFilename: string | null;
            epsgCode: number | null;
            errorCode: string | null;
            errorMessage: string | null;
            createdAt: string;
            updatedAt: string;
        };
        /**
         * @description POINT_CLOUD or the asset type of a product of GET /api/processing/products.
         * @example DTM
         */
        AssetType: string;
        /** @enum {string} */
        AssetStatus: "NONE" | "UPLOADING" | "UPLOADED" | "PROCESSING" | "ABORTED" | "EXTRACTING_METADATA" | "TILING" | "READY" | "ERROR";
        AssetFile: {
            extension: string;
            fileName: string;
            size: number;
        };
        JobSummary: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            state: components["schemas"]["JobState"];
            step: string | null;
            percentage: number;
            errorCode: string | null;
            errorMessage: string | null;
            updatedAt: string;
            queue?: components["schemas"]["QueueState"];
        };
        /** @enum {string} */
        JobState: "NONE" | "PENDING" | "PROGRESS" | "SUCCESS" | "FAILURE";
        /** @description PENDING or PROGRESS jobs only. */
        QueueState: {
            /** @description 1: next to start; null: running, or not queued yet. */
            position: number | null;
            /** @description Jobs running now, everyone’s. */
            running: number;
            /** @description Worker processes alive (heartbeat in the last minute). */
            workers: number;
            /** @description A processing that is queued once the point cloud’s tiling ends. */
            waitingForPointCloud: boolean;
            queuedAt: string | null;
            startedAt: string | null;
            /** @description When a worker takes it; in the future while a retry waits. */
            runAt: string | null;
            attempts: number | null;
            maxAttempts: number | null;
        };
        ShareToken: {
            token: string;
            url: string;
        };
        NewProject: {
            /**
             * @description Required, under 255 characters, no slash; unique among your projects.
             * @example Autzen
             */
            name: string;
        };
        ProjectPage: {
            /** @description Rows matching, over all pages. */
            count: number;
            results: components["schemas"]["Project"][];
        };
        ProjectPatch: {
            /**
             * @description Required, under 255 characters, no slash; unique among your projects.
             * @example Autzen
             */
            name: string;
        };
        ProductList: {
            results: components["schemas"]["ProductInfo"][];
        };
        ProductInfo: {
            /** @example hillshade */
            id: string;
            assetType: components["schemas"]["AssetType"];
            title: string;
            /** @enum {string} */
            layer: "POINT_CLOUD" | "RASTER" | "VECTOR" | "REPORT";
            /** @enum {string} */
            display: "pointCloud" | "raster" | "vector" | "download";
            needs: string[];
            options: string[];
        };
        Job: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            /** @enum {string} */
            kind: "METADATA" | "TILING" | "PROCESSING" | "CLASSIFICATION_EDIT";
            taskId: string;
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            projectId: string;
            projectName: string;
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            assetId: string | null;
            status: components["schemas"]["JobState"];
            /** @description Progress step of spec §4 (or a product id while processing). */
            step: string | null;
            percentage: number;
            lasName: string | null;
            fileSize: number | null;
            lasSize: number | null;
            user: string | null;
            area: number | null;
            epsg: number | null;
            dtmResolution: number | null;
            shadedDtm: boolean | null;
            contours: boolean | null;
            contourResolution: {
                minor: number;
                major: number;
            } | null;
            gridResolution: number | null;
            buildingSimplification: string | null;
            options?: unknown;
            result?: unknown;
            retryCount: number;
            attempts: number;
            /** @description A processing classified in tiles across workers (TILED_PROCESSING_POINTS): its tiles by state (job view only; null otherwise). */
            tiles?: {
                total: number;
                done: number;
                running: number;
                failed: number;
            } | null;
            errorCode: string | null;
            errorMessage: string | null;
            timestamp: string;
            createdAt: string;
            updatedAt: string;
            startedAt: string | null;
            finishedAt: string | null;
        };
        ProcessingRequest: {
            options?: components["schemas"]["ProcessingOptions"];
        };
        /** @description The major contour interval must be greater than the minor one. Fields: dtmResolutionCm, gridResolutionCm, contourMinorCm, contourMajorCm, powerLineBuffersCm, clearanceHeightCm, treeFallHeightBufferCm, vendorWireClasses, chmResolutionCm, crownShape, buildingSimplification. */
        ProcessingOptions: {
            /** @description 20–3000 cm (default 50). */
            dtmResolutionCm?: number;
            /** @description 100–10000 cm (default 1000). */
            gridResolutionCm?: number;
            /** @description 10–1000 cm (default 50). */
            contourMinorCm?: number;
            /** @description 10–1000 cm (default 250). */
            contourMajorCm?: number;
            /** @description 1–3 radii of 100–1000 cm (default 300, 600, 900). */
            powerLineBuffersCm?: number[];
            /** @description 100–10000 cm (default 300). */
            clearanceHeightCm?: number;
            /** @description 10–1000 cm (default 100). */
            treeFallHeightBufferCm?: number;
            /**
             * @description Default KEEP.
             * @enum {string}
             */
            vendorWireClasses?: "KEEP" | "FIND";
            /** @description 0–500 cm (default 0). */
            chmResolutionCm?: number;
            /**
             * @description Default NARROW.
             * @enum {string}
             */
            crownShape?: "NARROW" | "WIDE";
            /**
             * @description Default RURAL.
             * @enum {string}
             */
            buildingSimplification?: "RURAL" | "URBAN";
            /** @description Product ids to make (with what they need); every product when absent. */
            products?: string[];
            /** @description Id of the project's uploaded ORTHOPHOTO asset (an RGB GeoTIFF, upload-signed-url with type ORTHOPHOTO): the classified cloud takes its colours from it (LAS PDRF 7, coloured tiles). Refused (ORTHOPHOTO_NOT_COVERING) when under half of the points fall on it. */
            orthophotoAssetId?: string;
        } & {
            [key: string]: unknown;
        };
        ProjectJobs: {
            results: components["schemas"]["Job"][];
        };
        UploadUrl: {
            signedUrl: string;
            asset: components["schemas"]["Asset"];
            filename: string;
        };
        UploadUrlRequest: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            layerId: string;
            type: components["schemas"]["AssetType"];
            /** @description URL-encoded file name (.las or .laz; .tif for an ORTHOPHOTO), under 255 characters once decoded. */
            filename: string;
            /** @description Exact size in bytes (0 is FILE_EMPTY). */
            fileSize: number;
            /** @description EPSG code of the CRS. */
            epsgCode?: number | null;
            lasHeaderData?: unknown;
        };
        UploadResult: {
            asset: components["schemas"]["Asset"];
            /** @description The LAS header read back (a point cloud; absent for an ORTHOPHOTO upload). */
            header?: {
                lasVersion: string;
                pointFormat: number;
                pointCount: number;
                compressed: boolean;
                fileSize: number;
                crsRequired: boolean;
            };
        };
        TilingStarted: {
            asset: components["schemas"]["Asset"];
            inputFilePath: string;
        };
        StartTiling: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            assetId: string;
            filename?: string;
            fileSize?: number;
            originalFilename?: string;
            processingOptions?: components["schemas"]["ProcessingOptions"];
        };
        AssetMonitor: components["schemas"]["Asset"] & {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            projectId: string;
            metadata: {
                intensityMin: number | null;
                intensityMax: number | null;
            } & {
                [key: string]: unknown;
            };
            intensityNormalisation: boolean;
            intensityNormalisationMin: number | null;
        };
        AssetPatch: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            name?: string;
            /** @description EPSG code of the CRS. */
            epsgCode?: number | null;
            intensityNormalisation?: boolean;
            intensityNormalisationMin?: number | null;
        };
        SuppliedUrl: {
            url: string;
        };
        SuppliedFile: {
            url: string;
            fileName: string;
            totalSize: number;
        };
        JobPage: {
            /** @description Rows matching, over all pages. */
            count: number;
            results: components["schemas"]["Job"][];
        };
        CesiumParameters: {
            pointSize: number;
            /** @description Percent, 0..100. */
            globeOpacity: number;
            /** @description Empty when none is configured. */
            cesiumIonToken: string;
            /** @description Empty when none is configured. */
            bingMapsKey: string;
        };
        GlobalParameters: {
            /** @description Viewer point size (default 2). */
            pointSize: number;
            /** @description Tiler options as text, e.g. `--max-points 60000 --min-node-size 0.15`; empty: defaults. */
            tilingParameters: string;
            /** @description Opacity of the viewer’s globe, percent 0..100 (default 100). */
            globeOpacity: number;
            /** @description Cesium ion token of the "cesium" world imagery; empty: none. */
            cesiumIonToken: string;
            /** @description Bing Maps key of the "bing" world imagery; empty: none. */
            bingMapsKey: string;
        };
        GlobalParametersPatch: {
            pointSize?: number;
            tilingParameters?: string;
            globeOpacity?: number;
            cesiumIonToken?: string;
            bingMapsKey?: string;
        };
        CurrentSubscription: {
            subscription: components["schemas"]["Subscription"];
            usage: {
                projects: number;
                storageBytes: number;
            };
        };
        Subscription: {
            id: string;
            name: string;
            description: string;
            enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            startDate: string;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            endDate: string | null;
            status: components["schemas"]["SubscriptionStatus"];
            globalStatus: components["schemas"]["SubscriptionGlobalStatus"];
            category: components["schemas"]["SubscriptionCategory"];
            /** @description Hectares available now (reserved hectares already taken off). */
            credits: number;
            /** @description Hectares of each allocation. */
            creditsAllowance: number;
            allocationPeriod: components["schemas"]["AllocationPeriod"];
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            lastAllocationDate: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            nextAllocationDate: string | null;
            /**
             * Format: date-time
             * @description End of the period paid for (the anniversary).
             * @example 2026-05-01T00:00:00.000Z
             */
            validUntil: string | null;
            /** @description Cancelled: stays active until validUntil, then ends (waiting to be disabled). */
            unsubscribePending: boolean;
            premium: boolean;
            paymentProductId: string | null;
            paymentSubscriptionId: string | null;
            paymentProductReference: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            paymentFailedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            graceUntil: string | null;
            /** @enum {string|null} */
            suspensionReason: "admin" | "payment" | null;
            limits: components["schemas"]["SubscriptionLimits"];
            effectiveLimits: components["schemas"]["EffectiveLimits"];
            /** @description The subscription that applies to its user now. */
            current: boolean;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            endedAt: string | null;
            user: {
                id: string;
                email: string | null;
            };
            creator: {
                id: string;
                email: string | null;
            } | null;
            template: {
                id: string;
                name: string | null;
            } | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            updatedAt: string;
        };
        /**
         * @description Spec §4: active; inactive (not activated, replaced or deactivated: no processing); suspended (no project creation, upload or processing); unsubscribed (cancelled and ended).
         * @enum {string}
         */
        SubscriptionStatus: "active" | "inactive" | "suspended" | "unsubscribed";
        /**
         * @description The status in three: ACTIVE, INACTIVE (inactive or unsubscribed), SUSPENDED.
         * @enum {string}
         */
        SubscriptionGlobalStatus: "ACTIVE" | "INACTIVE" | "SUSPENDED";
        /**
         * @description PAID (bought through the payment provider or given by an admin) or FREEMIUM.
         * @enum {string}
         */
        SubscriptionCategory: "PAID" | "FREEMIUM";
        /**
         * @description NONE: credits once; MONTH, YEAR: the allowance each period (a FREEMIUM subscription is refilled up to it, a PAID one receives it with each paid invoice).
         * @enum {string}
         */
        AllocationPeriod: "NONE" | "MONTH" | "YEAR";
        /** @description Limits as set; null: the configured default (DEFAULT_MAX_*). */
        SubscriptionLimits: {
            maxProjects: number | null;
            /** @description Bytes (shown in GB). */
            maxInputFileBytes: number | null;
            /** @description Total bytes of assets (shown in GB). */
            maxStorageBytes: number | null;
        };
        /** @description The limits that apply, defaults filled in. */
        EffectiveLimits: {
            maxProjects: number;
            maxInputFileBytes: number;
            maxStorageBytes: number;
        };
        CreditsLedgerPage: {
            count: number;
            results: components["schemas"]["CreditsLedgerEntry"][];
        };
        CreditsLedgerEntry: {
            id: string;
            /** @enum {string} */
            kind: "opening" | "allocation" | "grant" | "adjustment" | "reservation" | "release" | "charge" | "transfer";
            /** @description Hectares. */
            hectares: number;
            /** @description Signed change of the credits available. */
            delta: number;
            subscriptionId: string | null;
            project: {
                id: string;
                name: string | null;
            } | null;
            jobId: string | null;
            actor: {
                id: string;
                email: string | null;
            } | null;
            note: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            createdAt: string;
        };
        SubscriptionPage: {
            /** @description Rows matching, over all pages. */
            count: number;
            results: components["schemas"]["Subscription"][];
        };
        SubscriptionDetail: {
            subscription: components["schemas"]["Subscription"];
            events: components["schemas"]["SubscriptionEvent"][];
        };
        SubscriptionEvent: {
            id: string;
            action: string;
            /** @description Who did it; null: the system (payments, schedule). */
            actor: {
                id: string;
                email: string | null;
            } | null;
            details: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            createdAt: string;
        };
        SubscriptionEdit: {
            name?: string;
            description?: string;
            enabled?: boolean;
            /** Format: date-time */
            endDate?: string | null;
            /** Format: date-time */
            validUntil?: string | null;
            category?: components["schemas"]["SubscriptionCategory"];
            creditsAllowance?: number;
            allocationPeriod?: components["schemas"]["AllocationPeriod"];
            /** Format: date-time */
            nextAllocationDate?: string | null;
            premium?: boolean;
            paymentProductId?: string | null;
            paymentProductReference?: string | null;
            maxProjects?: number | null;
            maxInputFileBytes?: number | null;
            maxStorageBytes?: number | null;
        };
        SubscriptionTemplatePage: {
            /** @description Rows matching, over all pages. */
            count: number;
            results: components["schemas"]["SubscriptionTemplate"][];
        };
        SubscriptionTemplate: {
            id: string;
            name: string;
            description: string;
            enabled: boolean;
            /** @description The freemium template every new account gets. */
            isDefault: boolean;
            category: components["schemas"]["SubscriptionCategory"];
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            startDate: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            endDate: string | null;
            /** @description Hectares a new subscription starts with. */
            credits: number;
            /** @description Hectares. */
            creditsAllowance: number;
            allocationPeriod: components["schemas"]["AllocationPeriod"];
            durationMonths: number | null;
            premium: boolean;
            /** @description Price shown (minor units: cents). */
            price: {
                amount: number;
                currency: string;
            } | null;
            /** @description The Stripe price id Checkout charges. */
            paymentProductId: string | null;
            paymentProductReference: string | null;
            limits: components["schemas"]["SubscriptionLimits"];
            activeSubscriptions: number;
            subscriptions: number;
            creatorId: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-05-01T00:00:00.000Z
             */
            updatedAt: string;
        };
        SubscriptionTemplateInput: {
            name: string;
            description?: string;
            enabled?: boolean;
            category: components["schemas"]["SubscriptionCategory"];
            /** Format: date-time */
            startDate?: string | null;
            /** Format: date-time */
            endDate?: string | null;
            credits?: number;
            creditsAllowance?: number;
            allocationPeriod?: components["schemas"]["AllocationPeriod"];
            durationMonths?: number | null;
            premium?: boolean;
            price?: {
                amount: number;
                currency: string;
            } | null;
            paymentProductId?: string | null;
            paymentProductReference?: string | null;
            maxProjects?: number | null;
            maxInputFileBytes?: number | null;
            maxStorageBytes?: number | null;
        };
        SubscriptionTemplateDetail: {
            template: components["schemas"]["SubscriptionTemplate"];
            events: components["schemas"]["SubscriptionEvent"][];
        };
        SubscriptionTemplateEdit: {
            name?: string;
            description?: string;
            enabled?: boolean;
            category?: components["schemas"]["SubscriptionCategory"];
            /** Format: date-time */
            startDate?: string | null;
            /** Format: date-time */
            endDate?: string | null;
            credits?: number;
            creditsAllowance?: number;
            allocationPeriod?: components["schemas"]["AllocationPeriod"];
            durationMonths?: number | null;
            premium?: boolean;
            price?: {
                amount: number;
                currency: string;
            } | null;
            paymentProductId?: string | null;
            paymentProductReference?: string | null;
            maxProjects?: number | null;
            maxInputFileBytes?: number | null;
            maxStorageBytes?: number | null;
        };
        Offers: {
            paymentsConfigured: boolean;
            templates: components["schemas"]["SubscriptionTemplate"][];
        };
        CheckoutStart: {
            url: string;
            sessionId: string;
        };
        Purchase: {
            id: string;
            sessionId: string;
            /** @enum {string} */
            status: "open" | "completed" | "cancelled" | "expired";
            /** @enum {string} */
            mode: "subscription" | "payment";
            template: {
                id: string;
                name: string;
            } | null;
            /** @description Credits the purchase added, once completed. */
            hectares: number | null;
            subscription: components["schemas"]["Subscription"] & (Record<string, never> | null);
            createdAt: string;
            completedAt: string | null;
        };
        WebhookReceipt: {
            /** @enum {boolean} */
            received: true;
            duplicate: boolean;
            /** @enum {string|null} */
            outcome: "applied" | "ignored" | null;
        };
        Statistics: {
            from: string;
            to: string;
            /** @enum {string} */
            interval: "day" | "month";
            totals: {
                users: number;
                projects: number;
                activeSubscriptions: number;
                creditsAvailable: number;
            };
            users: {
                period: string;
                added: number;
                total: number;
            }[];
            projects: {
                period: string;
                added: number;
                total: number;
            }[];
            hectaresProcessed: {
                period: string;
                hectares: number;
            }[];
            processing: {
                period: string;
                success: number;
                failure: number;
            }[];
            storage: {
                totalBytes: number;
                byLayer: {
                    layer: string;
                    bytes: number;
                }[];
                topUsers: {
                    userId: string;
                    email: string;
                    bytes: number;
                }[];
            };
            subscriptionsPerTemplate: {
                templateId: string | null;
                name: string;
                category: string;
                active: number;
                suspended: number;
                inactive: number;
                unsubscribed: number;
            }[];
            revenue: {
                period: string;
                currency: string;
                /** @description Minor units (cents). */
                amount: number;
                payments: number;
            }[];
        };
        MeasureCrs: {
            epsg: number | null;
            name: string;
            /** @description A definition proj4 reads (proj4 string, or WKT). */
            proj4: string;
            /** @description Metres per horizontal unit (0: geographic CRS). */
            horizontalUnitToMetre: number;
            /** @description Metres per unit of Z. */
            verticalUnitToMetre: number;
            vertical: components["schemas"]["MeasureVertical"];
        };
        MeasureVertical: {
            /**
             * @description How the 3D tiles hold heights: `orthometric` files are on the globe at Z × unit + N (geoid undulation), `ellipsoidal` ones at Z × unit.
             * @enum {string}
             */
            heights: "orthometric" | "ellipsoidal";
            geoidModel: string | null;
            /** @description Geoid undulations on a WGS84 grid over the project (bilinear between nodes). */
            undulation: {
                west: number;
                south: number;
                east: number;
                north: number;
                nx: number;
                ny: number;
                /** @description N in metres, row-major from the south-west node. */
                values: number[];
            } | null;
        };
        DtmHeights: {
            dtmAssetId: string;
            /** @description Cell size of the DTM, project horizontal units. */
            resolution: number;
            /** @description DTM height at each point (bilinear between cell centres), project vertical unit; null off the DTM or on nodata. */
            heights: (number | null)[];
        };
        DtmHeightsRequest: {
            /** @description X, Y in the project CRS (at most 2000 points). */
            points: [
                number,
                number
            ][];
        };
        ClipEstimate: {
            /** @description Estimated points inside (from the density; filters not applied). */
            points: number;
            /** @description Estimated size of the LAS file. */
            bytes: number;
            areaSquareMetres: number;
            maxAreaSquareMetres: number;
            /** @description Output formats offered for this cloud. */
            formats: ("las" | "laz")[];
            crs: {
                epsg: number | null;
                name: string;
            };
        };
        ClipRequest: {
            /**
             * @description `original`: the uploaded point cloud; `classified`: the classified point cloud of the processing (premium, 403 PREMIUM_REQUIRED otherwise).
             * @enum {string}
             */
            source: "original" | "classified";
            /**
             * @description `polygon`: a Polygon or MultiPolygon (holes cut out); `box`: the project-CRS box around the geometry; `corridor`: a LineString buffered by width/2 each side.
             * @enum {string}
             */
            kind: "polygon" | "box" | "corridor";
            /** @description A GeoJSON geometry in EPSG:4326 (longitude, latitude). */
            area: {
                /** @enum {string} */
                type: "Polygon" | "MultiPolygon" | "LineString";
                coordinates: unknown[];
            };
            /** @description Corridor width in metres. */
            width?: number;
            /** @description ASPRS class codes to keep (all when absent or empty). */
            classes?: number[];
            /**
             * @description Which returns to keep (all).
             * @enum {string}
             */
            returns?: "first" | "last" | "all";
            /**
             * @description `las`: LAS 1.4 (point format 6, 7 with RGB, 8 with NIR; extra bytes kept). `laz`: LAZ (LAS 1.4 header) in the cloud’s own point format, offered for point formats 0-3 without extra bytes only (the estimate’s `formats` says which); otherwise 400 CLIP_FORMAT_UNAVAILABLE.
             * @enum {string}
             */
            format: "las" | "laz";
            /** @description Also the area’s vector products in one zip: for every READY vector asset of the project, its features inside the area, cut to it (attributes and Z kept), one file (or Shapefile set) per asset named after its type, assets without a feature inside left out, and a README.txt listing the files and counts. */
            vectors?: {
                /**
                 * @description `geojson`: EPSG:4326 (RFC 7946); `dxf`: project CRS, a .prj beside each drawing; `shapefile`: project CRS, .shp/.shx/.dbf/.prj/.cpg per asset.
                 * @enum {string}
                 */
                format: "geojson" | "dxf" | "shapefile";
            };
        };
        ClipStatus: {
            id: string;
            /** @enum {string} */
            state: "PENDING" | "PROGRESS" | "SUCCESS" | "FAILURE";
            /** @description queued, downloading, clipping, uploading, done, retrying or error. */
            step: string;
            percentage: number;
            estimate: {
                points: number;
                bytes: number;
            };
            pointCount: number | null;
            bytes: number | null;
            fileName: string;
            /** @description Signed, expiring (6 h) download URL once SUCCESS. */
            url: string | null;
            /** @description CLIP_EMPTY (no point inside), CRS_REQUIRED, INPUT_MISSING, INTERNAL… */
            errorCode: string | null;
            errorMessage: string | null;
            createdAt: string;
            finishedAt: string | null;
            /** @description The zip of the area’s vector products, when the request asked for it. */
            vectors: {
                /** @enum {string} */
                format: "geojson" | "dxf" | "shapefile";
                fileName: string;
                bytes: number | null;
                /** @description Signed, expiring (6 h) download URL of the zip once SUCCESS. */
                url: string | null;
                files: {
                    assetType: string;
                    files: string[];
                    /** @description Features of the asset intersecting the area. */
                    features: number;
                    /** @description Parts written (a feature the area cuts in two gives two). */
                    parts: number;
                }[];
            } | null;
        };
        ClassificationEdits: {
            /** @description Oldest first. */
            edits: components["schemas"]["ClassificationEdit"][];
            /** @description The latest apply job (CLASSIFICATION_EDIT). */
            job: {
                /**
                 * @description Numeric id (as a string).
                 * @example 42
                 */
                id: string;
                /** @enum {string} */
                state: "PENDING" | "PROGRESS" | "SUCCESS" | "ERROR";
                step: string | null;
                percentage: number;
                errorCode: string | null;
            } | null;
            canUndo: boolean;
            canRedo: boolean;
        };
        ClassificationEdit: {
            /**
             * @description Numeric id (as a string).
             * @example 42
             */
            id: string;
            createdAt: string;
            userEmail: string;
            region: components["schemas"]["EditRegion"];
            fromClasses: number[];
            minZ: number | null;
            maxZ: number | null;
            toClass: number;
            /** @enum {string} */
            status: "ACTIVE" | "REVERTED";
            changed: components["schemas"]["ClassificationEditChange"];
        };
        EditRegion: {
            /** @enum {string} */
            kind: "screen";
            /** @description clip = projection × view, 16 numbers column-major (Cesium Matrix4.toArray order), mapping ECEF (EPSG:4978, metres) to clip space. */
            matrix: number[];
            /** @description Normalized device coordinates: x = 2·px/width − 1, y = 1 − 2·py/height (a box is 4 vertices). Points with c.w > 0 inside it (even-odd rule) are selected, at every depth. */
            polygon: [
                number,
                number
            ][];
        } | {
            /** @enum {string} */
            kind: "map";
            /** @description [longitude, latitude] in EPSG:4326. */
            polygon: [
                number,
                number
            ][];
        };
        /** @description What the apply job changed; null until applied. */
        ClassificationEditChange: {
            total: number;
            /** @description Points changed, by their class before. */
            byClass: {
                [key: string]: number;
            };
        } | null;
        ClassificationEditRequest: {
            region: components["schemas"]["EditRegion"];
            /** @description Only points of these current classes (all when absent or empty). */
            fromClasses?: number[];
            /** @description Lowest Z (project CRS, inclusive). */
            minZ?: number | null;
            /** @description Highest Z (project CRS, inclusive). */
            maxZ?: number | null;
            /** @description The class the points get: spec §3 list (0–28 without 8 and 12), else 400 INVALID_CLASS. */
            toClass: number;
        };
        ClassificationEditQueued: {
            edit: components["schemas"]["ClassificationEdit"];
            /**
             * @description The apply job.
             * @example 42
             */
            jobId: string;
        };
        TerrainUrl: {
            /** @description Tile URL template ({z}/{x}/{y}, geographic tiling scheme). A tile: "NTH1", width and height (uint16 LE), then width × height float32 LE heights in metres above the WGS84 ellipsoid, row 0 north; NaN outside the DTM. */
            url: string;
            west: number;
            south: number;
            east: number;
            north: number;
            /** @description Deepest level served; deeper tiles are interpolated. */
            maxLevel: number;
            minHeight: number;
            maxHeight: number;
            verticalReference: components["schemas"]["VerticalReference"];
        };
        /** @description What the heights are measured from: orthometric heights (a vertical datum the CRS names, or assumed) reach the globe with the geoid model added; ellipsoidal ones as they are. */
        VerticalReference: {
            /** @enum {string} */
            heights: "orthometric" | "ellipsoidal";
            name: string | null;
            epsg: number | null;
            /** @enum {string} */
            source: "crs" | "assumed";
            geoidModel: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
