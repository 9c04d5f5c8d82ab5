package dev.wirecontract.graphmind

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.io.File
import java.util.concurrent.TimeUnit

/**
 * `wirecontract conform` against the Kotlin SessionHost: every scenario of docs/conform.md
 * plays [dev.wirecontract.graphmind.conform] `ConformWorkload.kt` in a JVM of its own (this
 * test's classpath) and must pass. Reports in target/conform/kotlin/.
 */
class ConformTest {
    @Test
    fun everyScenarioPasses() {
        val cli = System.getProperty("wirecontract.cli") ?: error("-Dwirecontract.cli is not set")
        val repo = System.getProperty("wirecontract.repo") ?: error("-Dwirecontract.repo is not set")
        val out = File(repo, "target/conform/kotlin").apply { deleteRecursively(); mkdirs() }
        val java = ProcessHandle.current().info().command().orElse("java")
        val cmd = listOf(
            cli, "conform", "--jobs", "4", "--name", "kotlin-SessionHost", "--out", out.path,
            "--report", File(out, "report.txt").path, "--json", File(out, "report.json").path, "--junit", File(out, "junit.xml").path,
            "--", java, "-cp", System.getProperty("java.class.path"), "dev.wirecontract.graphmind.conform.ConformWorkloadKt",
        )
        val proc = ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(File(out, "conform.log")).start()
        check(proc.waitFor(300, TimeUnit.SECONDS)) { proc.destroyForcibly(); "conform took longer than 300 s" }
        val report = File(out, "report.txt").takeIf { it.exists() }?.readText() ?: File(out, "conform.log").readText()
        assertEquals(0, proc.exitValue(), report)
    }
}
