// Schema objects MikroORM's entity metadata cannot express (expression, partial and trigram
// indexes). They are created by migrations; the schema-diff test expects exactly these as the only
// difference between the entities and the database.
export const HAND_WRITTEN_INDEXES = [
  'app_user_email_live_unique',
  'invitation_org_email_index',
  'company_org_domain_unique',
  'company_org_name_index',
  'company_org_created_index',
  'company_search_trgm',
  'contact_org_email_unique',
  'contact_org_name_index',
  'contact_org_created_index',
  'contact_search_trgm',
  'company_contact_org_company_index',
  'company_contact_one_key',
  'company_contact_one_primary',
  'field_value_org_num_index',
  'field_value_org_text_index',
  'field_value_org_bool_index',
  'field_value_text_trgm',
] as const;
