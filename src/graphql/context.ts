// A resolver's context is the service layer's request scope: resolvers pass it to the use cases.
export type { RequestScope as GraphQLContext, Services } from '../services/scope.ts';
