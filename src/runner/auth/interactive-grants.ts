import type { InteractiveGrants } from "./auth-tokens";
import { authorizationCodeGrant } from "./authorization-code";
import { deviceCodeGrant } from "./device-code";
import type { SignInHost } from "./sign-in";

/** The grants that need a person, over one host (the plugin's, the CLI's): what `EnginePorts.authInteraction` returns. */
export function interactiveGrants(host: SignInHost): InteractiveGrants {
	return {
		authorizationCode: (auth, deps) => authorizationCodeGrant(auth, deps, host),
		deviceCode: (auth, deps) => deviceCodeGrant(auth, deps, host),
	};
}
