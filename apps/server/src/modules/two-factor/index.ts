// The two-factor module's entry: the one file other modules and the composition root import (lint holds it).
export { signChallenge } from './challenge-token';
export { registerTwoFactorGate } from './two-factor.gate';
export { TwoFactorRepository } from './two-factor.repository';
export { twoFactorRoutes } from './two-factor.routes';
export { TwoFactorService } from './two-factor.service';
