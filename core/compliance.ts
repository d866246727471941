/** The daily compliance evaluation's workflow type (workflows/compliance/dailyWorkflow.ts), shared by its Schedule. */
export const COMPLIANCE_DAILY_WORKFLOW = 'complianceDailyWorkflow';
