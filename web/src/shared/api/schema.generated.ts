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
                        /** @description The token from the mail link. */
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
                        /** @description The token from the mail link. */
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
                        /** @description The token from the mail link. */
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
                    /** @description The token from the mail link. */
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
        /** Credits (hectares) the current user holds */
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
         * @enum {string}
         */
        ErrorCode: "NOT_FOUND" | "INTERNAL" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_FAILED" | "DATABASE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "FORM_INVALID" | "INVALID_EMAIL" | "DISPOSABLE_EMAIL" | "WEAK_PASSWORD" | "COMMON_PASSWORD" | "UNKNOWN_COUNTRY" | "INVALID_LINK_URL" | "INVALID_CREDENTIALS" | "NO_ACCOUNT" | "ACCOUNT_EXISTS" | "ACCOUNT_INACTIVE" | "ACCOUNT_NOT_ACTIVATED" | "INVALID_RESET_LINK" | "INVALID_ACTIVATION_LINK" | "RESET_MAIL_FAILED" | "ACTIVATION_MAIL_FAILED" | "TOO_MANY_ATTEMPTS" | "TOKEN_INVALID" | "TOKEN_EXPIRED" | "TOKEN_REVOKED" | "FIELD_NOT_EDITABLE" | "LAST_ADMIN";
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
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
