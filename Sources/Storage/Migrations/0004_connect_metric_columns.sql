-- Migration 4: connect metric columns
--
-- The contact record and agent event fields that Amazon Connect's metric definitions need,
-- as columns, filled for rows already stored from their raw JSON.

ALTER TABLE contact_record
    ADD COLUMN transfer_completed_ts timestamptz,
    ADD COLUMN transferred_to_endpoint text,
    ADD COLUMN agent_connection_attempts integer,
    ADD COLUMN agent_hierarchy_level1 text,
    ADD COLUMN agent_hierarchy_level2 text,
    ADD COLUMN agent_hierarchy_level3 text,
    ADD COLUMN agent_hierarchy_level4 text,
    ADD COLUMN agent_hierarchy_level5 text;

UPDATE contact_record SET
    transfer_completed_ts = CASE
        WHEN raw->>'TransferCompletedTimestamp'
            ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$'
        THEN (raw->>'TransferCompletedTimestamp')::timestamptz END,
    transferred_to_endpoint = CASE
        WHEN jsonb_typeof(raw->'TransferredToEndpoint') = 'object'
        THEN raw->'TransferredToEndpoint'->>'Address' END,
    agent_connection_attempts = CASE
        WHEN jsonb_typeof(raw->'AgentConnectionAttempts') = 'number'
        THEN least(greatest(floor((raw->>'AgentConnectionAttempts')::numeric), 0), 2147483647)::integer END,
    agent_hierarchy_level1 = raw #>> '{Agent,HierarchyGroups,Level1,GroupName}',
    agent_hierarchy_level2 = raw #>> '{Agent,HierarchyGroups,Level2,GroupName}',
    agent_hierarchy_level3 = raw #>> '{Agent,HierarchyGroups,Level3,GroupName}',
    agent_hierarchy_level4 = raw #>> '{Agent,HierarchyGroups,Level4,GroupName}',
    agent_hierarchy_level5 = raw #>> '{Agent,HierarchyGroups,Level5,GroupName}'
WHERE raw ?| ARRAY['TransferCompletedTimestamp', 'TransferredToEndpoint', 'AgentConnectionAttempts']
   OR jsonb_typeof(raw #> '{Agent,HierarchyGroups}') = 'object';

COMMENT ON COLUMN contact_record.transferred_to_endpoint IS
'TransferredToEndpoint.Address: an external phone number. Analysts see it through mask_phone only.';

COMMENT ON COLUMN contact_record.agent_connection_attempts IS
'AgentConnectionAttempts: how many times Amazon Connect tried to connect the contact to an agent.';

ALTER TABLE agent_event ADD COLUMN contact_state text;

UPDATE agent_event SET contact_state = (
    SELECT CASE
        WHEN bool_or(c->>'State' = 'ERROR') THEN 'ERROR'
        WHEN bool_or(c->>'State' = 'MISSED') THEN 'MISSED'
        WHEN bool_or(c->>'State' = 'REJECTED') THEN 'REJECTED'
        WHEN bool_or(c->>'State' IN ('CONNECTED', 'CONNECTED_ONHOLD')) THEN 'CONNECTED'
        WHEN bool_or(c->>'State' = 'ENDED') THEN 'ENDED'
        WHEN bool_or(c->>'State' IN ('INCOMING', 'PENDING', 'CONNECTING')) THEN 'CONNECTING'
        END
    FROM jsonb_array_elements(raw #> '{CurrentAgentSnapshot,Contacts}') AS c
)
WHERE event_type <> 'LOGOUT' AND jsonb_typeof(raw #> '{CurrentAgentSnapshot,Contacts}') = 'array';

COMMENT ON COLUMN agent_event.contact_state IS
'The contact state that decides Amazon Connect''s Agent Activity, by its precedence over the snapshot''s contacts: ERROR, MISSED, REJECTED, CONNECTED (incl. on hold), ENDED (after-contact work), CONNECTING (incoming, pending, connecting); NULL without contacts or on LOGOUT.';
