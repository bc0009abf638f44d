CREATE VIEW agent_contact_interval_metrics AS
SELECT agent_arn,
       agent_username AS username,
       to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900) AS interval_start,
       to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900) + interval '15 minutes'
           AS interval_end,
       max(agent_hierarchy_level1) AS agent_hierarchy_level1,
       max(agent_hierarchy_level2) AS agent_hierarchy_level2,
       max(agent_hierarchy_level3) AS agent_hierarchy_level3,
       max(agent_hierarchy_level4) AS agent_hierarchy_level4,
       max(agent_hierarchy_level5) AS agent_hierarchy_level5,
       count(*) AS contacts_handled,
       count(*) FILTER (WHERE initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER'))
           AS contacts_handled_incoming,
       count(*) FILTER (WHERE initiation_method = 'OUTBOUND') AS contacts_handled_outbound,
       count(*) FILTER (WHERE initiation_method = 'CALLBACK') AS callback_contacts_handled,
       count(*) FILTER (WHERE transferred_out) AS transferred_out,
       count(*) FILTER (WHERE transferred_out_external) AS transferred_out_external,
       round(avg(handle_s), 2) AS average_handle_time_s,
       round(avg(acw_s), 2) AS average_after_contact_work_s
FROM contact_outcome
WHERE handled
GROUP BY agent_arn, agent_username, to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900);
