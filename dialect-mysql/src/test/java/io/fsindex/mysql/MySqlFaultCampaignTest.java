package io.fsindex.mysql;

import io.fsindex.innodb.InnoDbFaults;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ServerFaultCampaignConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The fault campaign on a real MySQL 8 server (see {@link TestServer} and {@link InnoDbFaults}). */
class MySqlFaultCampaignTest extends ServerFaultCampaignConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    @Override
    protected TestDatabase markedDatabase(String marker) throws Exception {
        return InnoDbFaults.markedDatabase(TestServer.mysql(), marker);
    }

    @Override
    protected void killSessions(String marker) throws Exception {
        InnoDbFaults.killSessions(TestServer.mysql(), marker);
    }

    @Override
    protected RestartableServer restartableServer() {
        return InnoDbFaults.restartable(TestServer.mysql());
    }
}
