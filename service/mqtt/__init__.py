"""The table's MQTT link (spec/mqtt.md): `link.MqttLink` (one paho client: events,
state, results, replies, the Last Will), the command intake (`intake`), topics,
Home Assistant discovery, and the publisher that subscribes the link to the table's bus."""
