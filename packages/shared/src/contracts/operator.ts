import { z } from 'zod';

/** GET /v1/operator/identity-reviews: an account whose identity documents wait for review. */
export const identityReview = z.object({
  accountId: z.string(),
  accountNumber: z.string(),
  accountHolderName: z.string(),
  identity: z.object({ type: z.string(), number: z.string() }),
  documents: z.array(z.object({ _id: z.string(), url: z.string(), createdAt: z.string() })),
});
export type IdentityReview = z.infer<typeof identityReview>;
export const identityReviewList = z.array(identityReview);

export const verifyIdentityParams = z.object({ accountId: z.uuid() });
export const verifyIdentityResult = z.object({ accountId: z.string(), isVerified: z.literal(true) });
export type VerifyIdentityResult = z.infer<typeof verifyIdentityResult>;
