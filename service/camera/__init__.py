"""The camera in the table service: a source of settled snapshots (`source`), what it
shows people (`view`, `status`: `camera/status` and `camera/snapshot`), set enrolment
(`enrol`), the commands about it (`commands`), what it hands the service (`events`) and
its MQTT publisher (`publisher`). Importing it loads OpenCV (through `vision`) but never
the simulated table."""
