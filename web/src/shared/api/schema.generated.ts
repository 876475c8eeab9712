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
    "/users/{id}/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's subscription standing (admin)
         * @description Status, credits granted, used and left, and the premium flag. Until billing lands, admins set them here.
         */
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
                /** @description The standing */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionStanding"];
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
        /**
         * Set a user's subscription status, credits and premium flag (admin)
         * @description Fields left out keep their value; null puts the status or the allowance back to the configured default. Suspended or none blocks creating projects, uploading and processing; inactive or unsubscribed blocks processing.
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
                    "application/json": components["schemas"]["SubscriptionStandingPatch"];
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionStanding"];
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
         * @description Creates (or resets, after a failed upload) the POINT_CLOUD asset of the layer and answers a signed, single-use URL on this API that expires in 1 hour. `lasHeaderData` is accepted and ignored: the server reads the header from the stored bytes.
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
                /** @description Invalid request: FORM_INVALID, INVALID_FILE, UNSUPPORTED_ASSET_TYPE, UNKNOWN_EPSG */
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
                /** @description Invalid request: UPLOAD_INCOMPLETE, MISSING_LAS_HEADER, INVALID_FILE */
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
                /** @description Invalid request: FORM_INVALID, FILE_REQUIRED, INVALID_FILE, MISSING_LAS_HEADER, UPLOAD_INCOMPLETE, UNSUPPORTED_ASSET_TYPE, UNKNOWN_EPSG */
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
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area";
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
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area";
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
                    sortBy?: "id" | "state" | "createdAt" | "updatedAt" | "percentage" | "lasName" | "user" | "area";
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
         * Viewer parameters (point size)
         * @description Public: shared projects are viewed without an account.
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
        /** Admin settings: point size and tiling parameters */
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
         *     - `INVALID_BBOX` (400): bbox must be minLon,minLat,maxLon,maxLat in EPSG:4326.
         * @enum {string}
         */
        ErrorCode: "NOT_FOUND" | "INTERNAL" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_FAILED" | "DATABASE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "FORM_INVALID" | "INVALID_EMAIL" | "DISPOSABLE_EMAIL" | "WEAK_PASSWORD" | "COMMON_PASSWORD" | "UNKNOWN_COUNTRY" | "INVALID_LINK_URL" | "INVALID_CREDENTIALS" | "NO_ACCOUNT" | "ACCOUNT_EXISTS" | "ACCOUNT_INACTIVE" | "ACCOUNT_NOT_ACTIVATED" | "INVALID_RESET_LINK" | "INVALID_ACTIVATION_LINK" | "RESET_MAIL_FAILED" | "ACTIVATION_MAIL_FAILED" | "TOO_MANY_ATTEMPTS" | "TOKEN_INVALID" | "TOKEN_EXPIRED" | "TOKEN_REVOKED" | "FIELD_NOT_EDITABLE" | "LAST_ADMIN" | "PROJECT_NOT_FOUND" | "DUPLICATE_PROJECT_NAME" | "PROJECT_NAME_REQUIRED" | "PROJECT_NAME_TOO_LONG" | "PROJECT_NAME_SLASH" | "MAX_PROJECTS_REACHED" | "FILE_TOO_LARGE" | "FILE_SIZE_LIMIT_ZERO" | "STORAGE_LIMIT_REACHED" | "LAYER_NOT_FOUND" | "ASSET_NOT_FOUND" | "UNSUPPORTED_ASSET_TYPE" | "INVALID_FILE" | "MISSING_LAS_HEADER" | "FILE_REQUIRED" | "ASSET_ALREADY_UPLOADED" | "UPLOAD_URL_INVALID" | "UPLOAD_URL_EXPIRED" | "UPLOAD_URL_USED" | "UPLOAD_INCOMPLETE" | "ASSET_NOT_UPLOADED" | "CRS_REQUIRED" | "UNKNOWN_EPSG" | "PROJECT_NOT_UPLOADED" | "PROJECT_NOT_READY" | "ASSET_NOT_READY" | "NO_TILES" | "FILE_NOT_FOUND" | "AREA_NOT_COMPUTED" | "SUBSCRIPTION_SUSPENDED" | "NO_SUBSCRIPTION" | "SUBSCRIPTION_INACTIVE" | "INSUFFICIENT_CREDITS" | "PROCESSING_ALREADY_RUNNING" | "INVALID_PROCESSING_OPTIONS" | "JOB_NOT_FOUND" | "JOB_NOT_FAILED" | "SHARE_TOKEN_INVALID" | "PREMIUM_REQUIRED" | "TILE_URL_INVALID" | "TILE_URL_EXPIRED" | "INVALID_RANGE" | "INVALID_TILING_PARAMETERS" | "INVALID_BBOX";
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
        UserPage: {
            /** @description Rows matching, over all pages. */
            count: number;
            results: components["schemas"]["User"][];
        };
        SubscriptionStanding: {
            userId: string;
            status: components["schemas"]["SubscriptionStatus"];
            /** @description Credits granted, hectares. */
            creditsAllowance: number;
            /** @description Hectares charged by processings. */
            creditsUsed: number;
            /** @description Hectares left: creditsAllowance − creditsUsed. */
            credits: number;
            /** @description The status is the configured default (none was set). */
            defaultStatus: boolean;
            /** @description The allowance is DEFAULT_CREDIT_HECTARES (none was set). */
            defaultAllowance: boolean;
            /** @description May download the classified point cloud. */
            premium: boolean;
        };
        /**
         * @description active, inactive, suspended, unsubscribed (spec §4), or none: no subscription at all.
         * @enum {string}
         */
        SubscriptionStatus: "active" | "inactive" | "suspended" | "unsubscribed" | "none";
        SubscriptionStandingPatch: {
            /** @description null: back to DEFAULT_SUBSCRIPTION_STATUS. */
            status?: components["schemas"]["SubscriptionStatus"] | null;
            /** @description Credits granted, hectares (0 to 1e9); null: back to DEFAULT_CREDIT_HECTARES. */
            creditsAllowance?: number | null;
            premium?: boolean;
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
        };
        /** @enum {string} */
        JobState: "NONE" | "PENDING" | "PROGRESS" | "SUCCESS" | "FAILURE";
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
            kind: "METADATA" | "TILING" | "PROCESSING";
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
        /** @description The major contour interval must be greater than the minor one. Fields: dtmResolutionCm, gridResolutionCm, contourMinorCm, contourMajorCm, powerLineBuffersCm, clearanceHeightCm, treeFallHeightBufferCm, crownShape, buildingSimplification. */
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
            /** @description URL-encoded file name (.las or .laz). */
            filename: string;
            /** @description Exact size in bytes. */
            fileSize: number;
            /** @description EPSG code of the CRS. */
            epsgCode?: number | null;
            lasHeaderData?: unknown;
        };
        UploadResult: {
            asset: components["schemas"]["Asset"];
            header: {
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
        };
        GlobalParameters: {
            /** @description Viewer point size (default 2). */
            pointSize: number;
            /** @description Tiler options as text, e.g. `--max-points 60000 --min-node-size 0.15`; empty: defaults. */
            tilingParameters: string;
        };
        GlobalParametersPatch: {
            pointSize?: number;
            tilingParameters?: string;
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
