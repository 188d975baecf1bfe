package io.fsindex.mariadb;

import io.fsindex.innodb.InnoDbFaults;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ServerFaultCampaignConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The fault campaign on a real MariaDB server (see {@link TestServer} and {@link InnoDbFaults}). */
class MariaDbFaultCampaignTest extends ServerFaultCampaignConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }

    @Override
    protected TestDatabase markedDatabase(String marker) throws Exception {
        return InnoDbFaults.markedDatabase(TestServer.mariadb(), marker);
    }

    @Override
    protected void killSessions(String marker) throws Exception {
        InnoDbFaults.killSessions(TestServer.mariadb(), marker);
    }

    @Override
    protected RestartableServer restartableServer() {
        return InnoDbFaults.restartable(TestServer.mariadb());
    }
}
