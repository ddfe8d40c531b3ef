// A closed-loop host for EagleTree (ClydeProjects/EagleTree), built against its own objects,
// unmodified, by build.sh. EagleTree's demo (Experiments/demo.cpp) builds its workload from
// threads and runs its OperatingSystem; this does the same with one thread that keeps QD 4 KiB
// random writes outstanding over the first SPAN logical pages, and prints a line every ROUND
// completed writes: the simulated time and EagleTree's own counters (StatisticsGatherer).
//
//   harness PACKAGES DIES_PER_PACKAGE BLOCKS_PER_PLANE PAGES_PER_BLOCK SPAN QD ROUND ROUNDS SEED
//           [READ_US PROGRAM_US ERASE_US BUS_CTRL_US BUS_DATA_US]
//
// The drive is EagleTree's set_small_SSD_config() (config.cpp) with the geometry given, and
// with the flash and bus times given when the five optional arguments are (EagleTree's
// PAGE_READ_DELAY, PAGE_WRITE_DELAY, BLOCK_ERASE_DELAY, BUS_CTRL_DELAY, BUS_DATA_DELAY).
// Output: "G packages dies blocks pages nand_pages span qd" once, "T read_us program_us
// erase_us bus_ctrl_us bus_data_us" (the times EagleTree was set to) once, then one line a round:
// "R completed_writes time_us host_programs gc_programs": host writes completed to the thread,
// the simulated time of the last completion (microseconds), and the page programs EagleTree
// counted for application writes and for GC moves (num_writes_per_LUN and
// num_gc_writes_per_LUN_destination summed over the LUNs).
#include <cstdio>
#include <cstdlib>
#include "ssd.h"
#include "Operating_System.h"

using namespace ssd;

namespace {

long sum(vector<vector<uint> > const& per_lun) {
	long s = 0;
	for (auto const& pkg : per_lun)
		for (uint v : pkg) s += v;
	return s;
}

// EagleTree's Simple_Thread with a report every `round` completions (its IO generation unchanged)
class Reporting_Writer : public Simple_Thread {
public:
	Reporting_Writer(long span, int qd, ulong seed, long round, long total)
		: Simple_Thread(new Random_IO_Pattern(0, span - 1, seed), new WRITES(), qd, total),
		  round(round), completed(0) {}
	void handle_event_completion(Event* event) {
		completed++;
		if (completed % round == 0) {
			StatisticsGatherer* s = StatisticsGatherer::get_global_instance();
			printf("R %ld %.3f %ld %ld\n", completed, event->get_current_time(),
			       sum(s->num_writes_per_LUN), sum(s->num_gc_writes_per_LUN_destination));
			fflush(stdout);
		}
		Simple_Thread::handle_event_completion(event);
	}
private:
	long round;
	long completed;
};

}  // namespace

int main(int argc, char** argv) {
	if (argc != 10 && argc != 15) {
		fprintf(stderr, "usage: %s PACKAGES DIES BLOCKS PAGES SPAN QD ROUND ROUNDS SEED "
		        "[READ_US PROGRAM_US ERASE_US BUS_CTRL_US BUS_DATA_US]\n", argv[0]);
		return 2;
	}
	set_small_SSD_config();
	SSD_SIZE = atoi(argv[1]);
	PACKAGE_SIZE = atoi(argv[2]);
	PLANE_SIZE = atoi(argv[3]);
	BLOCK_SIZE = atoi(argv[4]);
	long span = atol(argv[5]);
	int qd = atoi(argv[6]);
	long round = atol(argv[7]);
	long rounds = atol(argv[8]);
	ulong seed = strtoul(argv[9], NULL, 10);
	if (argc == 15) {
		PAGE_READ_DELAY = atof(argv[10]);
		PAGE_WRITE_DELAY = atof(argv[11]);
		BLOCK_ERASE_DELAY = atof(argv[12]);
		BUS_CTRL_DELAY = atof(argv[13]);
		BUS_DATA_DELAY = atof(argv[14]);
	}
	MAX_CONCURRENT_GC_OPS = PACKAGE_SIZE * SSD_SIZE;  // as set_small_SSD_config derives it
	MAX_SSD_QUEUE_SIZE = qd;
	PRINT_LEVEL = 0;
	if (span < 1 || span > (long)NUMBER_OF_ADDRESSABLE_PAGES()) {
		fprintf(stderr, "span %ld outside the drive's %u pages\n", span, NUMBER_OF_ADDRESSABLE_PAGES());
		return 2;
	}
	printf("G %u %u %u %u %u %ld %d\n", SSD_SIZE, PACKAGE_SIZE, PLANE_SIZE, BLOCK_SIZE,
	       NUMBER_OF_ADDRESSABLE_PAGES(), span, qd);
	printf("T %g %g %g %g %g\n", PAGE_READ_DELAY, PAGE_WRITE_DELAY, BLOCK_ERASE_DELAY,
	       BUS_CTRL_DELAY, BUS_DATA_DELAY);
	// what Experiment::run_single_point (experiment_runner.cpp) sets up before a run
	StatisticsGatherer::set_record_statistics(true);
	Thread::set_record_internal_statistics(false);
	Individual_Threads_Statistics::init();
	Free_Space_Meter::init();
	Free_Space_Per_LUN_Meter::init();
	VisualTracer::init();
	Queue_Length_Statistics::init();
	OperatingSystem* os = new OperatingSystem();
	vector<Thread*> threads;
	threads.push_back(new Reporting_Writer(span, qd, seed, round, round * rounds));
	os->set_threads(threads);
	os->set_num_writes_to_stop_after(round * rounds);
	os->set_progress_meter_granularity(1);
	os->run();
	printf("E\n");
	return 0;
}
